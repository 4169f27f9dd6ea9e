import { Command } from 'commander';
import { packageJson } from '../paths.js';
import { registerAccountCommands } from './accounts.js';
import { registerClaudeConfigCommand } from './claudeConfigCommand.js';
import { describeCliError } from './errors.js';
import { registerDemoCommand } from './demo.js';
import { registerLibraryCommands } from './library.js';
import { registerMcpCommand } from './mcp.js';
import { registerReportCommands } from './report.js';
import { registerServeCommand } from './serve.js';
import { registerSyncCommands } from './sync.js';

export function buildProgram(): Command {
  const program = new Command('chess-footprint')
    .description(packageJson.description)
    .version(packageJson.version)
    .showHelpAfterError();
  registerServeCommand(program);
  registerMcpCommand(program);
  registerClaudeConfigCommand(program);
  registerDemoCommand(program);
  registerAccountCommands(program);
  registerReportCommands(program);
  registerSyncCommands(program);
  registerLibraryCommands(program);
  return program;
}

/** Runs the CLI; an error reaching here is printed as one human line and sets the documented exit code (src/cli/errors.ts). */
export async function main(argv: string[]): Promise<void> {
  try {
    await buildProgram().parseAsync(argv);
  } catch (err) {
    const { message, exitCode } = describeCliError(err);
    console.error(`error: ${message}`);
    process.exitCode = exitCode;
  }
}

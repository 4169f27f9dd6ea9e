import { Command } from 'commander';
import { packageJson } from '../paths.js';
import { registerAccountCommands } from './accounts.js';
import { registerDemoCommand } from './demo.js';
import { registerLibraryCommands } from './library.js';
import { registerMcpCommand } from './mcp.js';
import { registerReportCommands } from './report.js';
import { registerServeCommand } from './serve.js';
import { registerReviewCommand } from './review.js';
import { registerSyncCommands } from './sync.js';

export function buildProgram(): Command {
  const program = new Command('chess-footprint')
    .description(packageJson.description)
    .version(packageJson.version)
    .showHelpAfterError();
  registerServeCommand(program);
  registerMcpCommand(program);
  registerDemoCommand(program);
  registerAccountCommands(program);
  registerReportCommands(program);
  registerSyncCommands(program);
  registerReviewCommand(program);
  registerLibraryCommands(program);
  return program;
}

export async function main(argv: string[]): Promise<void> {
  await buildProgram().parseAsync(argv);
}

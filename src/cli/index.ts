import { Command, CommanderError } from 'commander';
import { packageJson } from '../paths.js';
import { registerAccountCommands } from './accounts.js';
import { registerClaudeConfigCommand } from './claudeConfigCommand.js';
import { describeCliError, EXIT } from './errors.js';
import { registerDemoCommand } from './demo.js';
import { registerLibraryCommands } from './library.js';
import { registerMcpCommand } from './mcp.js';
import { registerReportCommands } from './report.js';
import { registerServeCommand } from './serve.js';
import { registerSignInLinkCommand } from './signInLink.js';
import { registerReviewCommand } from './review.js';
import { registerSyncCommands } from './sync.js';
import { registerWorkerCommand } from './worker/command.js';
import { registerWorkerKeyCommands } from './workerKey.js';

export function buildProgram(): Command {
  const program = new Command('chess-footprint')
    .description(packageJson.description)
    .version(packageJson.version)
    .showHelpAfterError()
    // Commander exits 1 on its own usage errors; ours is 2 (docs/cli.md, "Exit codes"). Set before the
    // subcommands are added so each inherits it; main() maps the thrown error to the code.
    .exitOverride();
  registerServeCommand(program);
  registerMcpCommand(program);
  registerClaudeConfigCommand(program);
  registerSignInLinkCommand(program);
  registerDemoCommand(program);
  registerAccountCommands(program);
  registerReportCommands(program);
  registerSyncCommands(program);
  registerReviewCommand(program);
  registerLibraryCommands(program);
  registerWorkerCommand(program);
  registerWorkerKeyCommands(program);
  return program;
}

/** Runs the CLI; an error reaching here is printed as one human line and sets the documented exit code (src/cli/errors.ts). */
export async function main(argv: string[]): Promise<void> {
  try {
    await buildProgram().parseAsync(argv);
  } catch (err) {
    if (err instanceof CommanderError) {
      // Commander has printed its message (or the help) already: only the code is left to set.
      process.exitCode = err.exitCode === 0 ? EXIT.ok : EXIT.usage;
      return;
    }
    const { message, exitCode } = describeCliError(err);
    console.error(`error: ${message}`);
    process.exitCode = exitCode;
  }
}

import type { Command } from 'commander';
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import { closeAppDeps } from '../app.js';
import { verifyToken } from '../auth/tokens.js';
import { loadConfig } from '../config.js';
import { limitHeapGrowth } from '../heapGrowth.js';
import type { AppDeps } from '../context.js';
import { ownerOrNamed } from '../services/accounts/index.js';
import { openApp, requireExistingStore } from './common.js';
import { createMcpServer } from '../mcp/server.js';
import { tools } from '../../tools/index.js';

export function registerMcpCommand(program: Command): void {
  program
    .command('mcp')
    .description('MCP over stdio (for Claude Desktop); the token comes from $CFP_TOKEN')
    .option('--data-dir <dir>', 'data folder (default $CFP_DATA_DIR or ~/.chess-footprint)')
    .action(async (opts: { dataDir?: string }) => {
      // stdout carries the protocol and nothing else: everything human goes to stderr.
      console.log = console.error;
      console.info = console.error;
      limitHeapGrowth();
      // A folder without a store is a wrong --data-dir far more often than a wish for an empty one:
      // creating it would hide the mistake behind a server with no games (issue 27, item 2).
      const deps = openApp(requireExistingStore(loadConfig({ dataDir: opts.dataDir })), { serving: true });
      // Claude Desktop shows this log: say plainly when personal tools cannot work, and why.
      const problem = storeProblem(deps, process.env.CFP_TOKEN);
      if (problem) console.error(`chess-footprint mcp: ${problem}; only the public tools will work`);
      // A review requested over stdio must be worked even when no `serve` runs beside it.
      deps.runtime.reviews.startWorkers();
      const server = createMcpServer(tools, deps, process.env.CFP_TOKEN, { transport: 'stdio' });
      await server.connect(new StdioServerTransport());
      const shutdown = async () => {
        await server.close();
        await closeAppDeps(deps);
        process.exit(0);
      };
      process.stdin.once('end', shutdown);
      process.once('SIGINT', shutdown);
      process.once('SIGTERM', shutdown);
    });
}

/** Why personal tools will fail on this store with this token, naming the data folder; null when they will work. */
export function storeProblem(deps: AppDeps, token: string | undefined): string | null {
  const dir = deps.config.dataDir;
  if (!ownerOrNamed(deps.store)) return `the store at ${dir} has no account (is --data-dir right? create one with \`init\` or \`demo\`)`;
  if (!token) return `CFP_TOKEN is not set (a token of the store at ${dir} is needed)`;
  if (!verifyToken(deps.store, token)) return `CFP_TOKEN is not a live token of the store at ${dir} (wrong --data-dir, or the token was revoked or has expired)`;
  return null;
}

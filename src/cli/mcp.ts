import type { Command } from 'commander';
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import { closeAppDeps, createAppDeps } from '../app.js';
import { loadConfig } from '../config.js';
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
      const deps = createAppDeps(loadConfig({ dataDir: opts.dataDir }));
      if (!process.env.CFP_TOKEN) console.error('note: CFP_TOKEN is not set; only the public tools will work');
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

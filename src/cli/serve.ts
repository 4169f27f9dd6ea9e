import type { Command } from 'commander';
import { closeAppDeps, createAppDeps } from '../app.js';
import { loadConfig } from '../config.js';
import type { AppDeps } from '../context.js';
import { seedDemo } from '../demo/index.js';
import { listen } from '../http/listen.js';
import { ownerOrNamed } from '../services/accounts.js';
import { tools } from '../../tools/index.js';
import { claudeDesktopSnippet } from '../services/claudeConfig.js';
import { issueToken } from '../auth/tokens.js';
import { signInLink } from './signInLink.js';
import { openingTable } from '../chess/openings.js';
import { startReportScheduler } from '../services/reportScheduler.js';
import { startSyncScheduler } from '../services/syncScheduler.js';

/** Background work `serve` owns; each capability adds its start function here. */
type Background = (deps: AppDeps, baseUrl: string) => { stop(): void | Promise<void> };
export const BACKGROUND: Background[] = [
  // Engine processes start with the first queued review; stopping happens in runtime.close().
  (deps) => {
    deps.runtime.reviews.startWorkers();
    return { stop: () => {} };
  },
  (deps) => startSyncScheduler(deps),
  (deps, baseUrl) => startReportScheduler(deps, { baseUrl: deps.config.publicBaseUrl ?? baseUrl }),
];

interface ServeOptions {
  port?: string;
  host?: string;
  dataDir?: string;
  demo?: boolean;
  engine?: string;
}

export function registerServeCommand(program: Command): void {
  program
    .command('serve')
    .description('start the REST API and the MCP server (prints "listening on http://HOST:PORT" when ready)')
    .option('--port <port>', 'port (default $PORT or 3000)')
    .option('--host <host>', 'interface to bind (default $HOST or 127.0.0.1)')
    .option('--data-dir <dir>', 'data folder (default $CFP_DATA_DIR or ~/.chess-footprint)')
    .option('--engine <path>', 'native UCI engine binary (default: the bundled WASM Stockfish)')
    .option('--demo', 'seed a demo owner with demo data when the store has no account')
    .action(async (opts: ServeOptions) => {
      const config = loadConfig({
        dataDir: opts.dataDir,
        host: opts.host,
        port: opts.port === undefined ? undefined : Number(opts.port),
        enginePath: opts.engine,
      });
      const deps = createAppDeps(config);
      if (config.rateLimits === 'off') console.error('warning: CFP_RATE_LIMITS=off: every rate limit is disabled');
      let token: string | null = null;
      const owner = ownerOrNamed(deps.store);
      if (!owner && opts.demo) {
        console.error('seeding demo data (a one-off; the store keeps it)…');
        token = (await seedDemo(deps, { log: (l) => console.error(l) })).token;
      } else if (owner && opts.demo) {
        // Tokens are shown once; a demo server hands out a fresh one each start so the quick start always works.
        token = issueToken(deps.store, deps.clock, owner.id, 'serve --demo').token;
      } else if (!owner) {
        console.error('this store has no account yet: run `chess-footprint init --name NAME --email EMAIL`, then `chess-footprint connect siteA|siteB|fed ID` and `chess-footprint sync`');
      }
      // Opening names are needed by sync, imports and reviews; load the table now rather than stall a request later.
      openingTable();
      const server = await listen(tools, deps, { host: config.host, port: config.port, baseUrl: config.publicBaseUrl ?? undefined });
      const stops = BACKGROUND.map((start) => start(deps, server.url));
      console.log(`listening on ${server.url}`);
      console.log(`REST API:   ${server.url}/api/v1   (OpenAPI: ${server.url}/openapi.json)`);
      console.log(`MCP server: ${server.url}/api/mcp`);
      if (token) console.log(`token:      ${token}`);
      const account = ownerOrNamed(deps.store);
      if (account) console.log(`dashboard:  ${signInLink(deps, server.url, account.id)}   (one-time sign-in link, valid 10 minutes)`);
      console.log(claudeDesktopSnippet({ mcpUrl: `${server.url}/api/mcp`, token, dataDir: config.dataDir }));
      const shutdown = async () => {
        await Promise.all(stops.map((s) => s.stop()));
        await server.close();
        await closeAppDeps(deps);
        process.exit(0);
      };
      process.once('SIGINT', shutdown);
      process.once('SIGTERM', shutdown);
    });
}

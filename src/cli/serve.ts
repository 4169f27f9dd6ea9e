import type { Command } from 'commander';
import { closeAppDeps } from '../app.js';
import { loadConfig } from '../config.js';
import type { AppDeps } from '../context.js';
import { seedDemo } from '../demo/index.js';
import { limitHeapGrowth } from '../heapGrowth.js';
import { listen } from '../http/listen.js';
import { ownerOrNamed, storeCommand } from '../services/accounts/index.js';
import { tools } from '../../tools/index.js';
import { serveBanner } from './banner.js';
import { openApp } from './common.js';
import { markServing } from '../store/liveServe.js';
import { CliError, EXIT, listenError } from './errors.js';
import { signInLink } from './signInLink.js';
import { openingTable } from '../chess/openings.js';
import { startReportScheduler } from '../services/reports/index.js';
import { startSyncScheduler } from '../services/sync/index.js';
import { startAutoReview } from '../services/review/index.js';

/** Background work `serve` owns; each capability adds its start function here. */
type Background = (deps: AppDeps, baseUrl: string) => { stop(): void | Promise<void> };
export const BACKGROUND: Background[] = [
  // Engine processes start with the first queued review; stopping happens in runtime.close().
  (deps) => {
    deps.runtime.reviews.startWorkers();
    return { stop: () => {} };
  },
  (deps) => startSyncScheduler(deps),
  // Opt-in (CFP_AUTO_REVIEW=N): queues up to N of each owner's new games a day, below API requests.
  (deps) => startAutoReview(deps),
  (deps, baseUrl) => startReportScheduler(deps, { baseUrl: deps.config.publicBaseUrl ?? baseUrl }),
];

interface ServeOptions {
  port?: string;
  host?: string;
  dataDir?: string;
  demo?: boolean;
  demoGames: string;
  engine?: string;
  engines?: string;
}

export function registerServeCommand(program: Command): void {
  program
    .command('serve')
    .description('start the REST API and the MCP server (prints "listening on http://HOST:PORT" when ready)')
    .option('--port <port>', 'port (default $PORT or 3000; 0 picks a free one)')
    .option('--host <host>', 'interface to bind (default $HOST or 127.0.0.1)')
    .option('--data-dir <dir>', 'data folder (default $CFP_DATA_DIR or ~/.chess-footprint)')
    .option('--engine <path>', 'native UCI engine binary (default: the bundled WASM Stockfish)')
    .option('--engines <n>', 'local engine processes (default $CFP_ENGINE_WORKERS or one per core; 0: none, reviews wait for review workers)')
    .option('--demo', 'seed a demo owner with demo data when the store has no account')
    .option('--demo-games <n>', 'how many demo games --demo seeds', '500')
    .action(async (opts: ServeOptions) => {
      const port = opts.port === undefined ? undefined : Number(opts.port);
      if (port !== undefined && !(Number.isInteger(port) && port >= 0 && port <= 65535)) {
        throw new CliError(`--port takes a whole number from 0 to 65535 (0 picks a free port), got ${opts.port}`, EXIT.usage);
      }
      const demoGames = Number(opts.demoGames);
      if (!Number.isInteger(demoGames) || demoGames < 1 || demoGames > 1_000_000) throw new CliError('--demo-games takes a whole number from 1 to 1,000,000', EXIT.usage);
      const engines = opts.engines === undefined ? undefined : Number(opts.engines);
      if (engines !== undefined && !(Number.isInteger(engines) && engines >= 0 && engines <= 64)) throw new CliError(`--engines takes a whole number from 0 to 64, got ${opts.engines}`, EXIT.usage);
      limitHeapGrowth();
      const config = loadConfig({ dataDir: opts.dataDir, host: opts.host, port, enginePath: opts.engine, engineWorkers: engines });
      const deps = openApp(config, { serving: true });
      if (config.rateLimits === 'off') console.error('warning: CFP_RATE_LIMITS=off: every rate limit is disabled');
      // Tokens are shown once and never minted by a restart: the first demo start prints its token,
      // later starts say how to get another (banner.ts).
      let token: string | null = null;
      const owner = ownerOrNamed(deps.store);
      if (!owner && opts.demo) {
        console.error('seeding demo data (a one-off; the store keeps it)…');
        token = (await seedDemo(deps, { games: demoGames, log: (l) => console.error(l) })).token;
      } else if (!owner) {
        console.error(`this store (${config.dataDir}) has no account yet: run \`${storeCommand(config.dataDir, 'init --name NAME --email EMAIL')}\`, then \`${storeCommand(config.dataDir, 'connect siteA|siteB|fed ID')}\` and \`${storeCommand(config.dataDir, 'sync')}\``);
      }
      // Opening names are needed by sync, imports and reviews; load the table now rather than stall a request later.
      openingTable();
      let server: Awaited<ReturnType<typeof listen>>;
      try {
        server = await listen(tools, deps, { host: config.host, port: config.port, baseUrl: config.publicBaseUrl ?? undefined });
      } catch (err) {
        await closeAppDeps(deps);
        throw listenError(config.host, config.port, err);
      }
      const stops = BACKGROUND.map((start) => start(deps, server.url));
      // So `mcp` over stdio on this store links to this address (src/store/liveServe.ts).
      const unmark = markServing(config.dataDir, server.url);
      const account = ownerOrNamed(deps.store);
      const signIn = account ? signInLink(deps, server.url, account.id) : null;
      console.log(serveBanner({ url: server.url, dataDir: config.dataDir, token, signIn }));
      const shutdown = async () => {
        unmark();
        await Promise.all(stops.map((s) => s.stop()));
        await server.close();
        await closeAppDeps(deps);
        process.exit(0);
      };
      process.once('SIGINT', shutdown);
      process.once('SIGTERM', shutdown);
    });
}

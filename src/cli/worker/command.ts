import type { Command } from 'commander';
import { loadConfig } from '../../config.js';
import { CliError, EXIT } from '../errors.js';
import { fishnetEndpoint, FishnetRejected } from './fishnetApi.js';
import { runWorker } from './reviewWorker.js';

interface WorkerCliOptions {
  server: string;
  key?: string;
  engines: string;
  engine?: string;
}

export function registerWorkerCommand(program: Command): void {
  program
    .command('worker')
    .description(
      "review games for a chess-footprint server on this machine: takes jobs over lichess's fishnet protocol (/fishnet) and searches them as lichess's fishnet client does; Ctrl-C gives the job in hand back",
    )
    .requiredOption('--server <url>', 'the server (http://host:3000), or any fishnet endpoint (…/fishnet)')
    .option('--key <key>', 'a worker key (`worker-key create` on the server; default $CFP_WORKER_KEY)')
    .option('--engines <n>', 'engine processes, one core each', '1')
    .option('--engine <path>', 'a native UCI engine, or a Stockfish .js build run under node (default: the bundled WASM Stockfish)')
    .action(async (opts: WorkerCliOptions) => {
      const endpoint = fishnetEndpoint(opts.server);
      if (!endpoint) throw new CliError(`--server expects an http(s) URL, got ${JSON.stringify(opts.server)}`, EXIT.usage);
      const key = opts.key ?? process.env.CFP_WORKER_KEY;
      if (!key) throw new CliError('a worker key is needed: --key KEY or $CFP_WORKER_KEY (create one on the server with `worker-key create --name NAME`)', EXIT.usage);
      const engines = Number(opts.engines);
      if (!Number.isInteger(engines) || engines < 1 || engines > 64) throw new CliError('--engines expects a whole number from 1 to 64', EXIT.usage);
      const { path, build } = loadConfig({ enginePath: opts.engine }).engine;

      const stop = new AbortController();
      let signals = 0;
      const onSignal = () => {
        signals += 1;
        // A second Ctrl-C does not wait for the job to be given back.
        if (signals > 1) process.exit(130);
        process.stderr.write('worker: stopping; the job in hand goes back to the server\n');
        stop.abort();
      };
      process.on('SIGINT', onSignal);
      process.on('SIGTERM', onSignal);
      try {
        const done = await runWorker({ endpoint, key, engine: { path, build }, engines, signal: stop.signal, say: (line) => console.log(line) });
        console.log(`worker: stopped; ${done.stored} submitted, ${done.refused} refused, ${done.failed} failed`);
      } catch (err) {
        if (err instanceof FishnetRejected) throw new CliError(err.message, EXIT.failure);
        throw err;
      } finally {
        process.off('SIGINT', onSignal);
        process.off('SIGTERM', onSignal);
      }
    });
}

import { readFileSync, statSync } from 'node:fs';
import { Option, type Command } from 'commander';
import { loadConfig } from '../../config.js';
import { CliError, EXIT } from '../errors.js';
import { fishnetEndpoint, FishnetRejected } from './fishnetApi.js';
import { runWorker } from './reviewWorker.js';

interface WorkerCliOptions {
  server: string;
  key?: string;
  keyFile?: string;
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
    .option('--key-file <path>', 'a file holding the worker key (`worker-key create` on the server); default: $CFP_WORKER_KEY')
    .addOption(new Option('--key <key>').hideHelp())
    .option('--engines <n>', 'engine processes, one core each', '1')
    .option('--engine <path>', 'a native UCI engine, or a Stockfish .js build run under node (default: the bundled WASM Stockfish)')
    .action(async (opts: WorkerCliOptions) => {
      const endpoint = fishnetEndpoint(opts.server);
      if (!endpoint) throw new CliError(`--server expects an http(s) URL, got ${JSON.stringify(opts.server)}`, EXIT.usage);
      const key = workerKeyFrom(opts, process.env);
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
      // On a terminal the job's progress is one line redrawn in place; in a log, a plain line now and then.
      const tty = process.stdout.isTTY === true;
      let drawn = false;
      const say = (line: string) => {
        process.stdout.write(`${drawn ? '\r\x1b[2K' : ''}${line}\n`);
        drawn = false;
      };
      const show = (line: string) => {
        if (!tty) return say(line);
        process.stdout.write(`\r\x1b[2K${line.slice(0, (process.stdout.columns ?? 120) - 1)}`);
        drawn = true;
      };
      try {
        const done = await runWorker({ endpoint, key, engine: { path, build }, engines, signal: stop.signal, say, progress: { show, tty } });
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

/**
 * The worker key, from `--key-file PATH` or `$CFP_WORKER_KEY`: never from the command line, where any local user
 * reads it with `ps` (issue 44 item 7). A `--key` is refused with the two ways that keep it private.
 */
export function workerKeyFrom(opts: { key?: string; keyFile?: string }, env: NodeJS.ProcessEnv): string {
  if (opts.key !== undefined) {
    throw new CliError('--key puts the key where any user of this machine reads it (`ps`): save it in a file only you can read and pass --key-file FILE, or set $CFP_WORKER_KEY', EXIT.usage);
  }
  let key: string | undefined;
  let from: string;
  if (opts.keyFile !== undefined) {
    from = `--key-file ${opts.keyFile}`;
    try {
      key = readFileSync(opts.keyFile, 'utf8').trim();
    } catch (err) {
      throw new CliError(`cannot read the key file ${opts.keyFile}: ${(err as NodeJS.ErrnoException).code ?? (err as Error).message}`, EXIT.usage);
    }
    // Told, not refused: the owner may have reasons (a container's mounted secret).
    if (process.platform !== 'win32' && (statSync(opts.keyFile).mode & 0o077) !== 0) {
      process.stderr.write(`worker: ${opts.keyFile} is readable by other users of this machine; \`chmod 600 ${opts.keyFile}\` keeps the key yours\n`);
    }
  } else {
    from = '$CFP_WORKER_KEY';
    key = env.CFP_WORKER_KEY?.trim();
  }
  if (!key) throw new CliError('a worker key is needed: --key-file FILE (the key alone in it) or $CFP_WORKER_KEY; `chess-footprint worker-key create --name NAME` on the server makes one', EXIT.usage);
  // Any fishnet server's key is taken (lichess's are not ours), but a key is one word.
  if (/\s/.test(key)) throw new CliError(`${from} holds more than one word; it should hold the key alone, as \`worker-key create\` prints it`, EXIT.usage);
  return key;
}

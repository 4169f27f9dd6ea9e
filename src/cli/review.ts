import type { Command } from 'commander';
import { createAppDeps, closeAppDeps } from '../app.js';
import { loadConfig } from '../config.js';
import { bulkReview, type BulkProgress } from '../services/review/index.js';
import { reviewAgainByKey } from '../services/workers/index.js';
import { fail, requireAccount, requireExistingStore, storeOptions, type StoreOptions } from './common.js';

interface ReviewOptions extends StoreOptions {
  since?: string;
  limit?: string;
  provider?: string;
  engine?: string;
  byKey?: string;
}

/** A progress bar with an ETA on stderr, redrawn in place on a terminal (a line per game otherwise). */
function progressLine(started: number) {
  const tty = process.stderr.isTTY;
  return (p: BulkProgress) => {
    const finished = p.done + p.failed;
    const frac = p.total ? finished / p.total : 1;
    const width = 24;
    const secs = (Date.now() - started) / 1000;
    const eta = finished > 0 && finished < p.total ? ` ETA ${Math.ceil((secs / finished) * (p.total - finished))}s` : '';
    const line = `review [${'#'.repeat(Math.round(frac * width)).padEnd(width, '.')}] ${finished}/${p.total} (${p.failed} failed)${eta}`;
    if (tty) process.stderr.write(`\r\x1b[2K${line.slice(0, (process.stderr.columns ?? 120) - 1)}`);
    else process.stderr.write(`${line}\n`);
    if (p.last?.error) process.stderr.write(`${tty ? '\n' : ''}  game ${p.last.gameId} failed: ${p.last.error}\n`);
  };
}

export function registerReviewCommand(program: Command): void {
  storeOptions(
    program
      .command('review')
      .description("review the owner's unreviewed games with moves, newest first, with the engine on this machine (spends no API allowance)")
      .option('--since <date>', 'only games played on or after this day (YYYY-MM-DD)')
      .option('--limit <n>', 'at most this many games')
      .option('--provider <p>', 'only games from this provider (siteA, siteB, fed, manual, pgn)')
      .option('--engine <path>', 'native UCI engine binary (default: the bundled WASM Stockfish)')
      .option('--by-key <name>', "review again, with this machine's engines, the games a review worker key of this name reviewed (after `worker-key revoke NAME`)"),
  ).action(async (opts: ReviewOptions) => {
    if (opts.since && !/^\d{4}-\d{2}-\d{2}$/.test(opts.since)) fail('--since expects a date as YYYY-MM-DD');
    const limit = opts.limit === undefined ? undefined : Number(opts.limit);
    if (limit !== undefined && (!Number.isInteger(limit) || limit < 1)) fail('--limit expects a whole number of games, at least 1');
    if (opts.provider && !['siteA', 'siteB', 'fed', 'manual', 'pgn'].includes(opts.provider)) fail('--provider expects siteA, siteB, fed, manual or pgn');
    const deps = createAppDeps(requireExistingStore(loadConfig({ dataDir: opts.dataDir, enginePath: opts.engine })));
    const stop = new AbortController();
    const onSigint = () => {
      process.stderr.write('\nstopping after the current game; finished reviews are kept (run again to resume)\n');
      stop.abort();
    };
    process.once('SIGINT', onSigint);
    let result: BulkProgress;
    try {
      const user = requireAccount(deps, opts);
      if (opts.byKey !== undefined) {
        const again = await reviewAgainByKey({ ...deps, reviews: deps.runtime.reviews }, user.id, opts.byKey, progressLine(Date.now()), stop.signal);
        if (!again.run) {
          console.log(`no game reviewed by a worker key named ${opts.byKey} (${again.byKey} review${again.byKey === 1 ? '' : 's'} by it, none of a game)`);
          return;
        }
        result = again.run;
      } else
      result = await bulkReview({ ...deps, reviews: deps.runtime.reviews }, user.id, { since: opts.since, limit, provider: opts.provider }, progressLine(Date.now()), stop.signal);
    } finally {
      process.off('SIGINT', onSigint);
      await closeAppDeps(deps);
    }
    if (process.stderr.isTTY) process.stderr.write('\n');
    const before = result.alreadyQueued ? ` (${result.alreadyQueued} of them were already queued or running, and were not queued again)` : '';
    console.log(`${result.done} reviewed, ${result.failed} failed, ${result.total - result.done - result.failed} not started${before}`);
    if (result.failed > 0 || stop.signal.aborted) process.exitCode = 1;
  });
}

import { arch, platform } from 'node:os';
import { NODE_KEYS, type AcquireResponse, type AnalysisEntry, type AnalysisSubmission, type NodeKey } from '../../../schemas/fishnet.js';
import { fishnetNodeLimit } from '../../chess/fishnetChunks.js';
import type { EngineChoice } from '../../engine/builds.js';
import { fishnetSearch, InvalidJob, type FishnetPosition } from '../../engine/fishnetSearch.js';
import { searchTimeoutMs } from '../../engine/pool.js';
import { UciEngine } from '../../engine/uciEngine.js';
import { packageJson } from '../../paths.js';
import { FishnetApi, FishnetRejected, FishnetUnavailable, type SubmitOutcome } from './fishnetApi.js';

/**
 * chess-footprint's own fishnet client (issue 36): takes review jobs from a server speaking lichess's fishnet
 * protocol (ours under /fishnet, or any other) and searches them as fishnet does (src/engine/fishnetSearch.ts)
 * on this machine's engines. One job at a time; its chunks are shared by all the engines.
 */

export interface WorkerOptions {
  endpoint: string;
  key: string;
  engine: EngineChoice;
  engines: number;
  /** One line per job and the worker's own news. */
  say: (line: string) => void;
  /**
   * The job in hand's progress (positions done of total, speed): on a terminal one line redrawn in place at every
   * position; elsewhere (`tty` false) said as a plain line at most every PLAIN_PROGRESS_MS. Absent: not shown.
   */
  progress?: { show: (line: string) => void; tty: boolean };
  /** Stops the worker: the job in hand is given back (abort), the engines quit. */
  signal: AbortSignal;
  /** fishnet's longest wait between acquires when no job comes (30 s). */
  maxBackoffMs?: number;
}

/**
 * fishnet's randomized back-off (src/util.rs `RandomizedBackoff`, the facts): each wait is drawn between 100 ms and
 * four times the last one, capped; a job resets it.
 */
export class Backoff {
  private last = 0;
  constructor(private readonly capMs: number) {}
  next(): number {
    const low = 100;
    const high = 4 * Math.max(low, this.last);
    this.last = Math.min(Math.max(low, this.capMs), low + Math.random() * (high - low));
    return this.last;
  }
  reset(): void {
    this.last = 0;
  }
}

/**
 * Which node limit of a job this engine reads: the key lila sends for its version (`Stockfish 17.1` → `sf17_1`),
 * else `sf16`, the one a stock fishnet client reads for any NNUE engine (src/api.rs `NodeLimit::get`).
 */
export function nodeKeyFor(engineVersion: string): NodeKey {
  const m = /^(\d+)(?:\.(\d+))?/.exec(engineVersion);
  const key = m ? `sf${m[1]}${m[2] && m[2] !== '0' ? `_${m[2]}` : ''}` : '';
  return (NODE_KEYS as readonly string[]).includes(key) ? (key as NodeKey) : 'sf16';
}

/** What the worker says it is: this client and version, the platform, and the engine as it named itself. */
export function workerUserAgent(engine: UciEngine): string {
  const network = engine.network ? `; ${engine.network}` : '';
  return `chess-footprint-worker-${platform()}-${arch()}/${packageJson.version} (${engine.id.name} ${engine.id.version}${network})`;
}

/** The protocol's entry for a position: its search, or the skip the server asked for. */
function entryOf(p: FishnetPosition | null): AnalysisEntry {
  if (!p) return { skipped: true };
  return {
    ...(p.pv.length ? { pv: p.pv.join(' ') } : {}),
    depth: p.depth,
    score: p.score.mate !== null ? { mate: p.score.mate } : { cp: p.score.cp ?? 0 },
    time: p.time,
    nodes: p.nodes,
    ...(p.nps !== null ? { nps: p.nps } : {}),
  };
}

const sleep = (ms: number, signal: AbortSignal) =>
  new Promise<void>((resolve) => {
    if (signal.aborted) return resolve();
    const timer = setTimeout(done, ms);
    function done() {
      clearTimeout(timer);
      signal.removeEventListener('abort', done);
      resolve();
    }
    signal.addEventListener('abort', done, { once: true });
  });

/** Every engine process, started again where one died (a failed job leaves its engines in no known state). */
async function startEngines(choice: EngineChoice, n: number, old: UciEngine[] = []): Promise<UciEngine[]> {
  return Promise.all(
    Array.from({ length: n }, (_, i) =>
      old[i]?.alive ? old[i] : UciEngine.start({ ...choice, threads: 1, hashMb: 16, multiPv: 1 }),
    ),
  );
}

export interface WorkerSummary {
  stored: number;
  refused: number;
  failed: number;
}

/** Runs until `signal` stops it, or the server refuses the worker (FishnetRejected is thrown). */
export async function runWorker(opts: WorkerOptions): Promise<WorkerSummary> {
  const summary: WorkerSummary = { stored: 0, refused: 0, failed: 0 };
  let engines = await startEngines(opts.engine, opts.engines);
  // Ctrl-C should not wait for a search to end: the engines are stopped, the job given back.
  const killEngines = () => engines.forEach((e) => e.kill());
  opts.signal.addEventListener('abort', killEngines, { once: true });
  let leaveQuietly = async () => {};
  try {
    const first = engines[0];
    const api = new FishnetApi(opts.endpoint, opts.key, workerUserAgent(first));
    leaveQuietly = () => api.leave().catch(() => undefined);
    const nodeKey = nodeKeyFor(first.id.version);
    const backoff = new Backoff(opts.maxBackoffMs ?? 30_000);
    // A server not up yet (or restarting) is waited for; a key it refuses stops the worker.
    for (;;) {
      try {
        if (!(await api.checkKey())) throw new FishnetRejected(`the server at ${opts.endpoint} does not know this key (or it was revoked)`);
        break;
      } catch (err) {
        if (!(err instanceof FishnetUnavailable)) throw err;
        const wait = backoff.next();
        opts.say(`worker: ${err.message}; trying again in ${Math.ceil(wait / 1000)} s`);
        await sleep(wait, opts.signal);
        if (opts.signal.aborted) return summary;
      }
    }
    backoff.reset();
    opts.say(`worker: ${engines.length} engine${engines.length === 1 ? '' : 's'} (${first.id.name} ${first.id.version}), jobs from ${opts.endpoint}`);
    let next: AcquireResponse | null = null;
    while (!opts.signal.aborted) {
      let job: AcquireResponse | null = next;
      next = null;
      try {
        job ??= await api.acquire();
      } catch (err) {
        if (!(err instanceof FishnetUnavailable)) throw err;
        const wait = (err.tooMany ? 60_000 : 0) + backoff.next();
        opts.say(`worker: ${err.message}; trying again in ${Math.ceil(wait / 1000)} s`);
        await sleep(wait, opts.signal);
        continue;
      }
      if (!job) {
        await sleep(backoff.next(), opts.signal);
        continue;
      }
      backoff.reset();
      const outcome = await workJob(api, engines, job, nodeKey, opts);
      if (outcome === 'failed') {
        summary.failed += 1;
        if (opts.signal.aborted) break;
        engines = await startEngines(opts.engine, opts.engines, engines);
        // A worker whose engine fails every job, or a server that keeps failing, is not asked again at once.
        await sleep(backoff.next(), opts.signal);
        continue;
      }
      if (outcome === 'stopped') break;
      if (outcome.kind === 'stored') {
        summary.stored += 1;
        next = outcome.next;
      } else {
        summary.refused += 1;
        // A job lost mid-search had its engines stopped at once.
        engines = await startEngines(opts.engine, opts.engines, engines);
      }
    }
  } finally {
    opts.signal.removeEventListener('abort', killEngines);
    await Promise.all(engines.map((e) => e.quit()));
    // Stopped (Ctrl-C, SIGTERM): the server shows this machine as gone at once, not when it was last heard of two minutes on.
    if (opts.signal.aborted) await leaveQuietly();
  }
  return summary;
}

/** How often a plain (not a terminal) output says the job's progress. */
export const PLAIN_PROGRESS_MS = 30_000;

/** "34/108 positions (31%), 0.8 positions/s, 640 knps, about 1 min 35 s left". */
export function progressLine(id: string, done: number, total: number, elapsedMs: number, nodes: number): string {
  const secs = Math.max(elapsedMs / 1000, 0.001);
  const rate = done / secs;
  const left = rate > 0 && done < total ? Math.round((total - done) / rate) : null;
  const eta = left === null ? '' : `, about ${left >= 60 ? `${Math.floor(left / 60)} min ${left % 60} s` : `${left} s`} left`;
  return `job ${id}: ${done}/${total} positions (${Math.floor((100 * done) / Math.max(total, 1))}%), ${rate.toFixed(2)} positions/s, ${Math.round(nodes / secs / 1000)} knps${eta}`;
}

/** Searches one job and submits it; says one line about it. Stops the moment the job is no longer this worker's. */
async function workJob(api: FishnetApi, engines: UciEngine[], job: AcquireResponse, nodeKey: NodeKey, opts: WorkerOptions): Promise<SubmitOutcome | 'failed' | 'stopped'> {
  const id = job.work.id;
  const moves = job.moves.trim() ? job.moves.trim().split(/\s+/) : [];
  const nodeLimit = job.work.nodes[nodeKey];
  const started = Date.now();
  const flavor = 'nnue' as const; // Stockfish evaluates with NNUE only since version 16; every build we run is one.
  const entries: AnalysisEntry[] = new Array(moves.length + 1).fill(null);
  const toSearch = moves.length + 1 - new Set(job.skipPositions.filter((i) => i >= 0 && i <= moves.length)).size;
  let searchedSoFar = 0;
  let nodesSoFar = 0;
  let lastShown = 0;
  let lastReport = Date.now();
  let reporting: Promise<unknown> = Promise.resolve();
  // The job stops being this worker's when the server refuses a progress report (its lease ran out and it was handed
  // out again, or the report was found wrong and the job put back): searching on would be thrown away (issue 44 item 3).
  const lost = new AbortController();
  let lostWhy: string | null = null;
  const loseJob = (why: string, rejected: FishnetRejected | null) => {
    if (lost.signal.aborted) return;
    lostWhy = why;
    lostRejection = rejected;
    lost.abort();
    // Stopped now, not at the end of the position in hand: the engines are started again for the next job.
    engines.forEach((e) => e.kill());
  };
  let lostRejection: FishnetRejected | null = null;
  const signal = AbortSignal.any([opts.signal, lost.signal]);
  let results: Array<FishnetPosition | null>;
  try {
    results = await fishnetSearch(engines, { startFen: job.position, moves, nodeLimit, skip: job.skipPositions }, {
      searchTimeoutMs: searchTimeoutMs(fishnetNodeLimit(nodeLimit)),
      signal,
      onPosition: (p) => {
        entries[p.index] = entryOf(p);
        searchedSoFar += 1;
        nodesSoFar += p.nodes;
        const shown = Date.now();
        if (opts.progress && (opts.progress.tty || shown - lastShown >= PLAIN_PROGRESS_MS)) {
          lastShown = shown;
          opts.progress.show(progressLine(id, searchedSoFar, toSearch, shown - started, nodesSoFar));
        }
        // fishnet reports progress at most every 3 s, position 0 always pending: lila tells a progress report from
        // a whole analysis by its first entry (fishnet src/queue.rs `debounced_progress_report`).
        if (Date.now() - lastReport < 3000 || signal.aborted) return;
        lastReport = Date.now();
        const body: AnalysisSubmission = { stockfish: { flavor }, analysis: entries.map((e, i) => (i === 0 ? null : e)) };
        reporting = reporting.then(async () => {
          if (lost.signal.aborted) return;
          try {
            const out = await api.submit(id, body, true);
            if (out.kind === 'refused') loseJob(`the server refused a progress report (${out.reason})`, null);
          } catch (err) {
            // A key refused (revoked) stops the worker; a server briefly unreachable does not cost the job.
            if (err instanceof FishnetRejected) loseJob(err.message, err);
          }
        });
      },
    });
  } catch (err) {
    await reporting;
    if (lost.signal.aborted) {
      if (lostRejection) throw lostRejection;
      opts.say(`job ${id}: stopped after ${searchedSoFar} of ${toSearch} positions: ${lostWhy}; it is no longer this worker's`);
      return { kind: 'refused', status: 0, reason: lostWhy ?? 'refused' };
    }
    if (err instanceof InvalidJob) {
      // As fishnet does with a batch it cannot read: not given back (it would come straight back), left to its lease.
      opts.say(`job ${id}: cannot be searched (${err.message}); left to time out on the server`);
      return 'failed';
    }
    // The job goes back to the server at once rather than when its lease runs out.
    await api.abort(id).catch(() => undefined);
    if (opts.signal.aborted) {
      opts.say(`job ${id}: stopped after ${searchedSoFar} of ${toSearch} positions, given back to the server`);
      return 'stopped';
    }
    opts.say(`job ${id}: failed, given back to the server (${err instanceof Error ? err.message : String(err)})`);
    return 'failed';
  }
  await reporting;
  if (lost.signal.aborted) {
    if (lostRejection) throw lostRejection;
    opts.say(`job ${id}: searched, but ${lostWhy}; not submitted`);
    return { kind: 'refused', status: 0, reason: lostWhy ?? 'refused' };
  }
  const searched = results.filter((r): r is FishnetPosition => r !== null);
  const secs = (Date.now() - started) / 1000;
  const nodes = searched.reduce((n, r) => n + r.nodes, 0);
  const body: AnalysisSubmission = { stockfish: { flavor }, analysis: results.map(entryOf) };
  let outcome: SubmitOutcome | null = null;
  // A finished search is worth a few tries: a server restarting or briefly busy (503) does not throw it away.
  for (let attempt = 1; !outcome; attempt++) {
    try {
      outcome = await api.submit(id, body, opts.signal.aborted);
    } catch (err) {
      if (err instanceof FishnetRejected) throw err;
      if (attempt < 4 && !opts.signal.aborted) {
        await sleep(2000 * attempt, opts.signal);
        continue;
      }
      opts.say(`job ${id}: searched, but the submission failed (${err instanceof Error ? err.message : String(err)}); the server will offer it again`);
      return 'failed';
    }
  }
  const what = outcome.kind === 'stored' ? 'submitted' : `refused (${outcome.reason})`;
  opts.say(
    `job ${id}: ${moves.length} plies, ${searched.length} positions searched (${results.length - searched.length} skipped) at ${fishnetNodeLimit(nodeLimit)} nodes in ${secs.toFixed(1)} s, ${Math.round(nodes / Math.max(secs, 0.001) / 1000)} knps; ${what}`,
  );
  return outcome;
}

import type { ChildProcess } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { availableParallelism, tmpdir } from 'node:os';
import { basename, join } from 'node:path';
import { cpScaleOf, onLichessScale } from '../../src/chess/calibration.js';
import { positionKey, type StoredAnalysis } from '../../src/chess/engineOutput.js';
import { buildPlies } from '../../src/chess/plyAnalysis.js';
import { fishnetNodeLimit } from '../../src/chess/fishnetChunks.js';
import { movesKey, replaySan, START_FEN } from '../../src/chess/pgn.js';
import { gamePositions } from '../../src/chess/positions.js';
import { analysisAccuracy, analysisEvals } from '../../src/chess/reviewAccuracy.js';
import { loadConfig } from '../../src/config.js';
import { deeperLook, EnginePool, type PoolOptions } from '../../src/engine/pool.js';
import { OwnerPositionMemos } from '../../src/services/review/positionMemo.js';
import { openStore, storeFile } from '../../src/store/db.js';
import { parseExport, type LichessExportGame } from '../helpers/lichessExport.js';
import { requireCurrentBuild } from './currentBuild.js';
import type { BenchTable } from './table.js';
import { cliRun, lastLine, requestReviews, reviewsOf, serveForWorkers, startWorker, stopChild } from './workerFleet.js';

const FIXTURE = new URL('../fixtures/lichess-analysed/games.ndjson', import.meta.url);

type Game = LichessExportGame & { players: Record<'white' | 'black', { analysis?: { accuracy?: number } }> };

function uciOf(g: Game): { startFen: string; movesUci: string[] } | null {
  const startFen = g.initialFen ?? START_FEN;
  const plies = replaySan(g.moves.split(' ').filter(Boolean), startFen);
  return plies ? { startFen, movesUci: plies.map((p) => p.uci) } : null;
}

/** Searchable positions of a set of games, and how many of them an earlier game (in the given order) already reached. */
function reuse(games: Array<{ startFen: string; movesUci: string[] }>): { positions: number; repeats: number } {
  const seen = new Set<string>();
  let positions = 0;
  let repeats = 0;
  for (const g of games) {
    for (const p of gamePositions(g.startFen, g.movesUci)) {
      if (p.terminal) continue;
      positions += 1;
      const k = positionKey(p.fen);
      if (seen.has(k)) repeats += 1;
      else seen.add(k);
    }
  }
  return { positions, repeats };
}

const pct = (a: number, b: number) => (b ? (100 * a) / b : NaN);

/**
 * Issue 25: the service's engine review of the shared lichess-analysed games against lichess's own server
 * analysis of them (same judgment, flagged or not, accuracy per player, great on a deeper search) and the cost
 * per ply, today's old defaults (100,000 nodes, no deeper look, no memo) against the configuration's (CFP_STOCKFISH
 * for a native binary, CFP_ENGINE_NODES, CFP_ENGINE_DEEP_NODES, CFP_ENGINE_MULTIPV, CFP_ENGINE_WORKERS) in one run.
 * CFP_BENCH_FIDELITY_GAMES reviews only the first N games (tuning on a subset); the reuse table needs no engine.
 */
export async function run(): Promise<BenchTable[]> {
  const all = parseExport(readFileSync(FIXTURE, 'utf8')) as Game[];
  const games = all.slice(0, Number(process.env.CFP_BENCH_FIDELITY_GAMES ?? all.length));
  const moves = all.map(uciOf).filter((m): m is NonNullable<typeof m> => m !== null);

  // Position reuse: the order the games were played (the export is newest first) and the reverse.
  const played = reuse([...moves].reverse());
  const tables: BenchTable[] = [
    {
      title: 'Each position searched once (issue 25 item 3): positions an earlier game of the same owner reached',
      columns: ['games', 'games n', 'searchable positions', 'already searched', '% reused'],
      rows: [['40 real lichess games of one account (test/fixtures/lichess-analysed)', moves.length, played.positions, played.repeats, pct(played.repeats, played.positions)]],
      notes: ['The demo history: `npm run bench -- fidelity` with CFP_BENCH_DEMO_GAMES=N adds a row (seeds a demo store of N games).'],
    },
  ];
  const demoGames = Number(process.env.CFP_BENCH_DEMO_GAMES ?? 0);
  if (demoGames > 0) {
    const { demoHistory } = await import('./demoHistory.js');
    const demo = reuse(await demoHistory(demoGames));
    tables[0].rows.push([`the demo owner's games (seed 7)`, demoGames, demo.positions, demo.repeats, pct(demo.repeats, demo.positions)]);
  }
  if (process.env.CFP_BENCH_FIDELITY_ENGINE === '0') return tables;

  const config = loadConfig({}, process.env);
  const e = config.engine;
  const size = Math.max(1, Math.min(e.workers, availableParallelism()));
  // Today's defaults before issue 25 item 6 (100,000 nodes, MultiPV 2, no deeper look, no memo) against the
  // configured ones (first pass + deeper look, one owner memo), same engine, same games, one run.
  const runs: PoolRun[] = [
    { label: 'old defaults: 100,000 nodes, no deeper look, no memo', nodes: 100_000, deeper: undefined, memo: false },
    {
      label: `new: ${e.nodesPerPosition.toLocaleString('en')} nodes, deeper look at ${e.deepNodes.toLocaleString('en')}, owner memo`,
      nodes: e.nodesPerPosition,
      deeper: deeperLook(e.deepNodes),
      memo: true,
    },
  ];
  const rows: BenchTable['rows'] = [];
  const fidelity: BenchTable['rows'] = [];
  if (process.env.CFP_BENCH_FISHNET_ONLY !== '1') {
    for (const r of runs) {
      const { out, row } = await reviewWithPool(games, r, size);
      rows.push(row);
      fidelity.push([r.label, ...agreement(out, games)]);
    }
  }
  if (rows.length === 0) return [...tables, ...(await lichessEngineRows(all, runs[1], size))];
  const engineName = e.path ? `native ${e.path}` : `bundled ${e.build} build`;
  const [oldCpu, newCpu] = rows.map((r) => Number(r[7]));
  tables.push(
    {
      title: `Bulk review cost on the lichess-analysed games (${engineName}, MultiPV ${e.multiPv}, ${size} engine(s))`,
      columns: ['run', 'games', 'plies', 'searched', 'of them deeper', 'reused', 'engine CPU s', 'CPU ms/ply', 'games/CPU-hour', 'wall s'],
      rows,
      notes: [
        `New CPU per ply ÷ old: ${(newCpu / oldCpu).toFixed(3)} (target ≤ 0.5, issue 25 item 6).`,
        'Both runs search each position alone from a clean hash; the memo only skips positions already searched.',
      ],
    },
    {
      title: "Review fidelity against lichess's own analysis (issue 25 targets: same judgment ≥ 95, flagged-or-not ≥ 97, accuracy within 1.0 ≥ 80% of players, bias ±0.5, every great deeper)",
      columns: ['run', 'plies', 'same judgment %', 'flagged-or-not %', 'players', 'accuracy within 1.0 %', 'mean bias', 'mean |diff|', 'great', 'great on a deeper search', 'cp scale applied', 'lichess cp ÷ ours (median)', 'positions fitted'],
      rows: fidelity,
      notes: [
        "Our centipawns are restated on lichess's scale before the rules read them (src/chess/calibration.ts, the factor per network). The last two columns fit that factor again on these games: the median of lichess's cp ÷ ours (raw) over the positions where both lie between 50 and 1,000 cp on the same side.",
      ],
    },
  );
  return [...tables, ...(await lichessEngineRows(all, runs[1], size))];
}

interface PoolRun {
  label: string;
  nodes: number;
  deeper: PoolOptions['deeper'];
  memo: boolean;
}

/** Reviews `games` (oldest first, one engine per game) with the configured engine at `r`'s budget: the analyses in the games' order, and the cost row. */
async function reviewWithPool(games: Game[], r: PoolRun, size: number): Promise<{ out: StoredAnalysis[]; row: BenchTable['rows'][number] }> {
  const e = loadConfig({}, process.env).engine;
  const pool = new EnginePool({ path: e.path, build: e.build, threads: e.threads, hashMb: e.hashMb, multiPv: e.multiPv, size, nodesPerPosition: r.nodes, deeper: r.deeper });
  const memo = r.memo ? new OwnerPositionMemos().for('bench') : undefined;
  const started = performance.now();
  // The oldest game first, as a bulk review of a new history would meet them; one engine per game.
  const order = [...games].reverse();
  const out: StoredAnalysis[] = new Array(order.length);
  let next = 0;
  await Promise.all(
    Array.from({ length: size }, async () => {
      while (next < order.length) {
        const i = next++;
        const m = uciOf(order[i]);
        if (m) out[i] = await pool.analyse(m.startFen, m.movesUci, () => new Date().toISOString(), { engines: 1, memo });
      }
    }),
  );
  const wall = (performance.now() - started) / 1000;
  const cpu = pool.cpuSeconds();
  await pool.close();
  const plies = out.reduce((s, a) => s + (a?.movesUci.length ?? 0), 0);
  const row = [r.label, order.length, plies, pool.counts.searched, pool.counts.deeper, pool.counts.reused, cpu ?? NaN, cpu === null ? NaN : (1000 * cpu) / plies, cpu ? (3600 * order.length) / cpu : NaN, wall];
  return { out: out.reverse(), row };
}

/** The shared games lichess analysed while it ran official Stockfish 17.1 (2025-03-30 to 2025-05-03, fishnet's history). */
const SF17_1_WINDOW = ['j5b0ZFjD', 'BHyUXw4u', 'M8dL56Hx', 'ueD4tvab', '3tCbcK0t'];

/**
 * Issue 36: lichess's engine through our protocol. `chess-footprint worker --engine <stockfish@17.1.0's .js>` against
 * `serve --engines 0` on the games played in the Stockfish 17.1 window, at lichess's budget (1,000,000 nodes asked,
 * 857,142 searched, fishnet's order), beside today's default review of the same games, both against lichess's
 * published judgments. The 17.1 build is installed for the benchmark only, never shipped:
 *
 *     npm i --prefix /tmp/sf17 --no-save stockfish@17.1.0
 *     CFP_BENCH_LICHESS_ENGINE=/tmp/sf17/node_modules/stockfish/src/stockfish-17.1-single-a496a04.js npm run bench -- fidelity
 *
 * (the single-threaded full-network build; its network is split in six .wasm parts beside the .js). Knobs:
 * CFP_BENCH_FISHNET_GAMES (ids, comma separated; default the five), CFP_BENCH_FISHNET_NODES (the limit asked,
 * default 1,000,000), CFP_BENCH_FISHNET_ENGINES (the worker's engines, default 2), CFP_BENCH_FISHNET_ONLY=1 (these
 * rows only). Without CFP_BENCH_LICHESS_ENGINE the worker row is left out and the table says how to add it.
 */
async function lichessEngineRows(all: Game[], today: PoolRun, size: number): Promise<BenchTable[]> {
  const ids = (process.env.CFP_BENCH_FISHNET_GAMES ?? SF17_1_WINDOW.join(',')).split(',').filter(Boolean);
  const games = ids.map((id) => all.find((g) => g.id === id)).filter((g): g is Game => g !== undefined);
  if (games.length !== ids.length) throw new Error(`CFP_BENCH_FISHNET_GAMES names games not in test/fixtures/lichess-analysed: ${ids.filter((id) => !all.some((g) => g.id === id)).join(', ')}`);
  const nodes = Number(process.env.CFP_BENCH_FISHNET_NODES ?? 1_000_000);
  const engine = process.env.CFP_BENCH_LICHESS_ENGINE;
  const engines = Number(process.env.CFP_BENCH_FISHNET_ENGINES ?? 2);
  const rows: BenchTable['rows'] = [];
  const { out, row } = await reviewWithPool(games, today, size);
  rows.push([`today's default (${today.label.replace(/^new: /, '')})`, row[row.length - 1], ...agreement(out, games)]);
  if (engine) {
    const { reviews, wall } = await throughWorker(games, engine, engines, nodes);
    rows.push([`worker --engine ${basename(engine)}: ${fishnetNodeLimit(nodes).toLocaleString('en')} nodes, fishnet's order, MultiPV 1`, wall, ...agreement(reviews, games)]);
  }
  return [
    {
      title: `lichess's engine through our protocol (issue 36 targets: same judgment ≥ 95, flagged-or-not ≥ 97), games ${games.map((g) => g.id).join(', ')}`,
      columns: ['run', 'wall s', 'plies', 'same judgment %', 'flagged-or-not %', 'players', 'accuracy within 1.0 %', 'mean bias', 'mean |diff|', 'great', 'great on a deeper search', 'cp scale applied', 'lichess cp ÷ ours (median)', 'positions fitted'],
      rows,
      notes: [
        engine
          ? `The worker row: \`chess-footprint worker --engines ${engines}\` (the shipped dist/) against \`serve --engines 0\` on a store holding these games, reviews asked over REST; wall time from the requests (the worker starting, its engines loading) to the last review stored.`
          : 'The worker row needs stockfish@17.1.0 (never shipped): `npm i --prefix /tmp/sf17 --no-save stockfish@17.1.0`, then CFP_BENCH_LICHESS_ENGINE=/tmp/sf17/node_modules/stockfish/src/stockfish-17.1-single-a496a04.js.',
        "A worker's review is read on lichess's own scale: no calibration factor is applied to an engine the table has not measured (the 'cp scale applied' column).",
      ],
    },
  ];
}

/** A PGN of an exported game (the owner plays White: which side does not matter to a review). */
function pgnOf(g: Game): string {
  const sans = g.moves.split(' ').filter(Boolean);
  const date = new Date((g as Game & { createdAt?: number }).createdAt ?? 0).toISOString().slice(0, 10).replace(/-/g, '.');
  const fen = g.initialFen ? `[SetUp "1"]\n[FEN "${g.initialFen}"]\n` : '';
  const body = sans.map((s, i) => (i % 2 === 0 ? `${i / 2 + 1}. ${s}` : s)).join(' ');
  const winner = (g as Game & { winner?: 'white' | 'black' }).winner;
  const result = winner === 'white' ? '1-0' : winner === 'black' ? '0-1' : '1/2-1/2';
  return `[Event "lichess ${g.id}"]\n[Site "https://lichess.org/${g.id}"]\n[Date "${date}"]\n[White "Bench"]\n[Black "Opponent ${g.id}"]\n[Result "${result}"]\n${fen}\n${body} ${result}\n\n`;
}

/** The games reviewed by `chess-footprint worker` against `serve --engines 0` on a store of their own; in the games' order. */
async function throughWorker(games: Game[], engine: string, engines: number, nodes: number): Promise<{ reviews: StoredAnalysis[]; wall: number }> {
  requireCurrentBuild();
  const dir = mkdtempSync(join(tmpdir(), 'cfp-bench-fishnet-'));
  const serve: { child?: ChildProcess } = {};
  let worker: ChildProcess | undefined;
  try {
    // `init` prints the token, then the Claude Desktop entry.
    const token = /cfp_[\w-]+/.exec(await cliRun(['init', '--name', 'Bench', '--email', 'bench@example.org', '--data-dir', dir]))![0];
    const file = join(dir, 'games.pgn');
    writeFileSync(file, games.map(pgnOf).join(''));
    await cliRun(['import', file, '--as', 'white', '--data-dir', dir]);
    const key = lastLine(await cliRun(['worker-key', 'create', '--name', 'fidelity', '--data-dir', dir]));
    const keys = games.map((g) => uciOf(g)!).map((m) => movesKey(m.startFen, m.movesUci));
    const ids = gameIdsOf(dir, keys);
    const started = await serveForWorkers(dir, { CFP_WORKER_NODES: String(nodes) });
    serve.child = started.child;
    const t0 = performance.now();
    await requestReviews(started.url, token, ids);
    worker = startWorker(started.url, key, { engines, engine, log: (l) => console.error(`[bench] ${l}`) });
    const reviews = await reviewsOf(dir, keys, 12 * 3600_000);
    return { reviews: keys.map((k) => reviews.get(k)!), wall: (performance.now() - t0) / 1000 };
  } finally {
    if (worker) await stopChild(worker);
    if (serve.child) await stopChild(serve.child);
    rmSync(dir, { recursive: true, force: true });
  }
}

/** The store's game ids for these move sequences, in their order. */
function gameIdsOf(dataDir: string, keys: string[]): string[] {
  const store = openStore(storeFile(dataDir));
  try {
    return keys.map((k) => {
      const row = store.sqlite.prepare('SELECT id FROM games WHERE moves_key = ?').get(k) as { id: string } | undefined;
      if (!row) throw new Error(`a bench game was not imported (moves key ${k.slice(0, 12)}…)`);
      return row.id;
    });
  } finally {
    store.close();
  }
}

/** Agreement of our reviews with lichess's analysis of the same games (judgments per ply, accuracy per player). */
function agreement(raw: StoredAnalysis[], games: Game[]): Array<number> {
  // The rules read a review on lichess's scale, as the service's derivation does (src/services/review/derive.ts).
  const reviewed = raw.map((a) => a && onLichessScale(a));
  let plies = 0;
  let same = 0;
  let flaggedSame = 0;
  let great = 0;
  let greatDeeper = 0;
  const accDiffs: number[] = [];
  reviewed.forEach((a, gi) => {
    const g = games[gi];
    if (!a || !g.analysis) return;
    const ours = buildPlies(a, { userColour: null, clocks: null, timeControl: null, withLines: () => false });
    ours.forEach((p, i) => {
      if (p.ply.classification !== 'great') return;
      great += 1;
      if (a.positions[i].deeper) greatDeeper += 1;
    });
    g.analysis.forEach((entry, i) => {
      if (!ours[i]) return;
      plies += 1;
      const theirs = entry.judgment?.name ?? null;
      const mine = ours[i].judgment;
      if (mine === theirs) same += 1;
      if ((mine === null) === (theirs === null)) flaggedSame += 1;
    });
    const acc = analysisAccuracy(a);
    for (const side of ['white', 'black'] as const) {
      const published = g.players[side].analysis?.accuracy;
      if (typeof published === 'number') accDiffs.push(acc[side] - published);
    }
  });
  const within = accDiffs.filter((d) => Math.abs(d) <= 1).length;
  const n = accDiffs.length || 1;
  const bias = accDiffs.reduce((s, d) => s + d, 0) / n;
  const mad = accDiffs.reduce((s, d) => s + Math.abs(d), 0) / n;
  const fit = scaleFit(raw, games);
  const applied = raw.find((a) => a)?.engine;
  return [plies, pct(same, plies), pct(flaggedSame, plies), accDiffs.length, pct(within, accDiffs.length), bias, mad, great, greatDeeper, cpScaleOf(applied), fit.median, fit.n];
}

/** lichess's cp ÷ ours on the same positions (both White's point of view, 50..1,000 cp on the same side): the median and how many. */
function scaleFit(raw: StoredAnalysis[], games: Game[]): { median: number; n: number } {
  const ratios: number[] = [];
  raw.forEach((a, gi) => {
    const theirs = games[gi].analysis;
    if (!a || !theirs) return;
    analysisEvals(a).forEach((ours, i) => {
      const t = theirs[i]?.eval;
      if (ours.eval === undefined || t === undefined) return;
      const ok = (v: number) => Math.abs(v) >= 50 && Math.abs(v) <= 1000;
      if (ok(ours.eval) && ok(t) && Math.sign(ours.eval) === Math.sign(t)) ratios.push(t / ours.eval);
    });
  });
  ratios.sort((x, y) => x - y);
  return { median: ratios.length ? ratios[ratios.length >> 1] : NaN, n: ratios.length };
}

import { readFileSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import { cpScaleOf, onLichessScale } from '../../src/chess/calibration.js';
import { positionKey, type StoredAnalysis } from '../../src/chess/engineOutput.js';
import { buildPlies } from '../../src/chess/plyAnalysis.js';
import { replaySan, START_FEN } from '../../src/chess/pgn.js';
import { gamePositions } from '../../src/chess/positions.js';
import { analysisAccuracy, analysisEvals } from '../../src/chess/reviewAccuracy.js';
import { loadConfig } from '../../src/config.js';
import { deeperLook, EnginePool, type PoolOptions } from '../../src/engine/pool.js';
import { OwnerPositionMemos } from '../../src/services/review/positionMemo.js';
import { parseExport, type LichessExportGame } from '../helpers/lichessExport.js';
import type { BenchTable } from './table.js';

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
  const runs: Array<{ label: string; nodes: number; deeper: PoolOptions['deeper']; memo: boolean }> = [
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
  for (const r of runs) {
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
    rows.push([r.label, order.length, plies, pool.counts.searched, pool.counts.deeper, pool.counts.reused, cpu ?? NaN, cpu === null ? NaN : (1000 * cpu) / plies, cpu ? (3600 * order.length) / cpu : NaN, wall]);
    fidelity.push([r.label, ...agreement(out.reverse(), games)]);
  }
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
  return tables;
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

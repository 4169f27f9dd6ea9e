import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { closeAppDeps, createAppDeps } from '../../src/app.js';
import { gameAcpl, gameJudgments, type LichessEval } from '../../src/chess/index.js';
import { replaySan } from '../../src/chess/pgn.js';
import { loadConfig } from '../../src/config.js';
import { seedDemo } from '../../src/demo/index.js';
import { games } from '../../src/store/schema/index.js';
import { parseExport } from '../helpers/lichessExport.js';
import { meanMoveShape } from '../helpers/moveShape.js';
import { NativeStockfish } from '../helpers/nativeStockfish.js';
import type { BenchTable } from './table.js';

const FIXTURE = new URL('../fixtures/lichess-analysed/games.ndjson', import.meta.url);
const SAMPLE = Number(process.env.CFP_BENCH_DEMO_SAMPLE ?? 50);
const NODES = Number(process.env.CFP_BENCH_DEMO_NODES ?? 200_000);

interface Figures {
  games: number;
  plies: number;
  blunders: number;
  mistakes: number;
  inaccuracies: number;
  /** Each player's average centipawn loss (lichess's AccuracyCP), one entry per player per game. */
  acpl: number[];
  /** Blunders per 100 plies, per game. */
  blundersPerGame: number[];
}

function tally(perGame: Array<{ plies: number; judgments: Array<string | null>; acpl: Array<number | null> }>): Figures {
  const f: Figures = { games: perGame.length, plies: 0, blunders: 0, mistakes: 0, inaccuracies: 0, acpl: [], blundersPerGame: [] };
  for (const g of perGame) {
    f.plies += g.plies;
    const b = g.judgments.filter((j) => j === 'Blunder').length;
    f.blunders += b;
    f.mistakes += g.judgments.filter((j) => j === 'Mistake').length;
    f.inaccuracies += g.judgments.filter((j) => j === 'Inaccuracy').length;
    f.blundersPerGame.push((100 * b) / Math.max(1, g.plies));
    for (const a of g.acpl) if (a !== null) f.acpl.push(a);
  }
  return f;
}

const mean = (xs: number[]) => xs.reduce((s, x) => s + x, 0) / Math.max(1, xs.length);
const range = (xs: number[]) => `${Math.min(...xs).toFixed(1)} to ${Math.max(...xs).toFixed(1)}`;

/** The demo's 500 games as the default seeding makes them (seed 1): the owner's games with full moves, oldest first. */
async function demoGames(): Promise<{ san: string[][]; seedMs: number }> {
  const dir = mkdtempSync(join(tmpdir(), 'cfp-bench-demo-games-'));
  try {
    const deps = createAppDeps(loadConfig({ dataDir: dir }, { CFP_RATE_LIMITS: 'off' }));
    const t = performance.now();
    await seedDemo(deps, { games: 500, seed: 1, log: () => {} });
    const seedMs = performance.now() - t;
    const rows = deps.store.db.select().from(games).orderBy(games.playedAt).all();
    await closeAppDeps(deps);
    return { san: rows.filter((r) => r.movesSource === 'pgn' && r.sanMoves).map((r) => r.sanMoves!.split(' ')), seedMs };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/** Every position of a game searched by native Stockfish at full strength: lichess-style evaluations and judgments. */
async function engineJudged(engine: NativeStockfish, san: string[]) {
  const plies = replaySan(san)!;
  const uci = plies.map((p) => p.uci);
  const evals: LichessEval[] = [];
  const best: string[] = [];
  for (let i = 0; i <= uci.length; i += 1) {
    const { bestMove, score } = await engine.search(uci.slice(0, i), `nodes ${NODES}`);
    best.push(bestMove);
    if (i === 0) continue;
    // White's point of view, as lichess's analysis array; a final checkmate gets no entry, as lichess leaves it.
    const sign = i % 2 === 0 ? 1 : -1;
    if (bestMove === '(none)' && score?.mate === 0) break;
    evals.push(!score ? { eval: 0 } : score.mate !== undefined ? { mate: score.mate * sign } : { eval: score.cp * sign });
  }
  const judgments = gameJudgments(evals, { isFirstChoice: (i) => best[i] === uci[i] });
  const acpl = gameAcpl(evals);
  return { plies: uci.length, judgments, acpl: [acpl.white, acpl.black] };
}

/**
 * Issue 45 item 11: how the demo's games look beside real club games. Move shapes (no engine) on every demo game
 * and on `SAMPLE` of them, against the 40 shared lichess games; errors on the sample searched by native Stockfish
 * (`CFP_STOCKFISH`) at `CFP_BENCH_DEMO_NODES` nodes a position (default 200,000), judged by lichess's rules
 * (src/chess/judgments.ts), against lichess's own judgments and published ACPL of the 40 games. Also the seeding time.
 */
export async function run(): Promise<BenchTable[]> {
  const lichess = parseExport(readFileSync(FIXTURE, 'utf8'));
  const realShape = meanMoveShape(lichess.map((g) => g.moves.split(' ')));
  const real = tally(
    lichess.map((g) => ({
      plies: g.moves.split(' ').length,
      judgments: (g.analysis ?? []).map((a) => a.judgment?.name ?? null),
      acpl: [g.players.white.analysis?.acpl ?? null, g.players.black.analysis?.acpl ?? null],
    })),
  );
  const demo = await demoGames();
  const step = demo.san.length / SAMPLE;
  const sample = Array.from({ length: Math.min(SAMPLE, demo.san.length) }, (_, i) => demo.san[Math.floor(i * step)]);
  const allShape = meanMoveShape(demo.san);
  const sampleShape = meanMoveShape(sample);
  const engine = new NativeStockfish();
  const engineId = await engine.init({ Hash: '64' });
  const judged = [];
  try {
    for (const g of sample) {
      judged.push(await engineJudged(engine, g));
      console.error(`[bench] demo-games: ${judged.length} of ${sample.length} games searched`);
    }
  } finally {
    engine.close();
  }
  const fake = tally(judged);
  const per100 = (f: Figures, n: number) => (100 * n) / f.plies;
  return [
    {
      title: 'Demo games against the 40 shared lichess games: per game',
      columns: ['games', 'count', 'king moves, queens on, moves 1-20', 'N/B back to a home square', 'plies'],
      rows: [
        ['lichess (test/fixtures/lichess-analysed)', lichess.length, realShape.kingMovesQueensOn, realShape.minorsHome, real.plies / real.games],
        [`demo sample (every ${step.toFixed(1)}th, seed 1)`, sample.length, sampleShape.kingMovesQueensOn, sampleShape.minorsHome, fake.plies / fake.games],
        ['demo, all games with moves', demo.san.length, allShape.kingMovesQueensOn, allShape.minorsHome, mean(demo.san.map((s) => s.length))],
        ['target: at most 1.25 × lichess', '', 1.25 * realShape.kingMovesQueensOn, 1.25 * realShape.minorsHome, ''],
      ],
      notes: ['move shapes per test/helpers/moveShape.ts (castling is not a king move; "moves 1-20" counts both sides\' moves numbered 1 to 20)'],
    },
    {
      title: 'Errors per 100 plies (lichess judgments) and average centipawn loss per player',
      columns: ['games', 'blunders', 'mistakes', 'inaccuracies', 'blunders per game: range', 'ACPL mean', 'ACPL range'],
      rows: [
        ['lichess (their server analysis)', per100(real, real.blunders), per100(real, real.mistakes), per100(real, real.inaccuracies), range(real.blundersPerGame), mean(real.acpl), range(real.acpl)],
        [`demo sample (${engineId}, ${NODES} nodes)`, per100(fake, fake.blunders), per100(fake, fake.mistakes), per100(fake, fake.inaccuracies), range(fake.blundersPerGame), mean(fake.acpl), range(fake.acpl)],
      ],
      notes: ['judged by src/chess/judgments.ts on the engine\'s evaluations of every position; a ply that is the engine\'s own first choice is not judged, as lichess does'],
    },
    {
      title: 'Seeding the demo (500 games, seed 1, no engine)',
      columns: ['seconds'],
      rows: [[demo.seedMs / 1000]],
    },
  ];
}

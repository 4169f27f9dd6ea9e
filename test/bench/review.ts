import { rmSync } from 'node:fs';
import { and, eq } from 'drizzle-orm';
import { createAppDeps, closeAppDeps } from '../../src/app.js';
import { loadConfig } from '../../src/config.js';
import type { PersonalCtx } from '../../src/context.js';
import { ownerOrNamed } from '../../src/services/accounts/accounts.js';
import { parseClocks, parseTimeControl } from '../../src/chess/clocks.js';
import { selectMoments } from '../../src/chess/moments.js';
import { buildPlies } from '../../src/chess/plyAnalysis.js';
import { getGameAnalysis } from '../../src/services/review/analysis.js';
import { ownedGame } from '../../src/services/games/games.js';
import { gameDetail } from '../../src/services/review/gameReview.js';
import { getCriticalMoments } from '../../src/services/review/moments.js';
import { ownerReview } from '../../src/services/review/records.js';
import { bulkReview } from '../../src/services/review/bulk.js';
import { analyses, games } from '../../src/store/schema/index.js';
import { buildBenchStore } from './benchStore.js';
import { percentile, type BenchTable } from './table.js';

const CALLS = 400;

/** p50 and p99 of `CALLS` in-process calls of `fn` cycling over `ids`. */
function timeCalls(ids: string[], fn: (id: string) => unknown) {
  const ms: number[] = [];
  for (let i = 0; i < CALLS; i += 1) {
    const t = performance.now();
    fn(ids[i % ids.length]);
    ms.push(performance.now() - t);
  }
  ms.sort((a, b) => a - b);
  return { p50: percentile(ms, 50), p99: percentile(ms, 99) };
}

/**
 * What each read cost before the view was stored: the whole game replayed, classified and its
 * moments built from the stored engine output (the owner's clocks laid on), per request.
 */
function derivePerRequest(ctx: PersonalCtx, id: string) {
  const game = ownedGame(ctx, id);
  const review = ownerReview(ctx.store, ctx.user.id, game.movesKey)!;
  const analysis = review.engineOutput();
  const plies = buildPlies(analysis, { userColour: game.colour, clocks: parseClocks(game.clocks), timeControl: parseTimeControl(game.timeControl) });
  return selectMoments(plies, analysis, { side: 'both', maxMoments: 40 });
}

/**
 * Issue 10: bulk review throughput at the default budget (`chess-footprint review`'s path, the
 * bundled engine unless CFP_STOCKFISH names one, CFP_ENGINE_WORKERS processes), then get_game on
 * the games it reviewed against unreviewed ones of the same 2,000-game demo store.
 * CFP_BENCH_REVIEW_GAMES sets how many games are reviewed (default 3).
 */
export async function run(): Promise<BenchTable[]> {
  const n = Number(process.env.CFP_BENCH_REVIEW_GAMES ?? 3);
  const { dataDir } = await buildBenchStore(2000);
  const config = loadConfig({ dataDir }, { ...process.env, CFP_RATE_LIMITS: 'off' });
  const deps = createAppDeps(config);
  const user = ownerOrNamed(deps.store)!;
  const started = performance.now();
  const result = await bulkReview({ ...deps, reviews: deps.runtime.reviews }, user.id, { limit: n });
  const seconds = (performance.now() - started) / 1000;
  const reviewed = deps.store.db
    .select({ id: games.id, san: games.sanMoves })
    .from(games)
    .innerJoin(analyses, and(eq(analyses.userId, games.userId), eq(analyses.movesKey, games.movesKey)))
    .all();
  const plies = reviewed.reduce((s, g) => s + (g.san?.split(' ').length ?? 0), 0);
  const reviewedIds = reviewed.map((r) => r.id);
  const unreviewedIds = (deps.store.sqlite.prepare('SELECT id FROM games WHERE user_id = ? AND moves_source = ? ORDER BY random() LIMIT 200').all(user.id, 'pgn') as Array<{ id: string }>)
    .map((r) => r.id)
    .filter((id) => !reviewedIds.includes(id));
  const ctx: PersonalCtx = { ...deps, user, caller: { surface: 'rest', key: 'bench' } };
  const getGame = (id: string) => gameDetail(ctx, id);
  timeCalls(unreviewedIds, getGame); // warm-up
  const un = timeCalls(unreviewedIds, getGame);
  const rev = timeCalls(reviewedIds, getGame);
  const views = [
    ['get_game_analysis (first page, 40 plies)', timeCalls(reviewedIds, (id) => getGameAnalysis(ctx, { id, fromPly: 1, limit: 40, side: 'both' }))],
    ['get_critical_moments (defaults)', timeCalls(reviewedIds, (id) => getCriticalMoments(ctx, { id, side: 'both', maxMoments: 40 }))],
    ['before: replay, classify and build moments per request', timeCalls(reviewedIds, (id) => derivePerRequest(ctx, id))],
  ] as const;
  await closeAppDeps(deps);
  rmSync(dataDir, { recursive: true, force: true });
  const c = config.engine;
  return [
    {
      title: `Bulk review throughput (issue 10): ${c.nodesPerPosition.toLocaleString('en')} nodes per position, MultiPV ${c.multiPv}, ${c.workers} engine process(es)`,
      columns: ['games', 'failed', 'plies', 'wall s', 'games/hour', 'plies/s'],
      rows: [[result.done, result.failed, plies, seconds, (result.done / seconds) * 3600, plies / seconds]],
      notes: ['`chess-footprint review` path (bulkReview), newest games of a 2,000-game demo store; wall time depends on machine load: take it on a quiet machine'],
    },
    {
      title: 'get_game: reviewed vs unreviewed game (issue 10), in process, 2,000-game store',
      columns: ['game', 'p50 ms', 'p99 ms', '× unreviewed p50'],
      rows: [
        ['unreviewed', un.p50, un.p99, 1],
        ['reviewed', rev.p50, rev.p99, rev.p50 / un.p50],
      ],
      notes: [`${CALLS} calls each; the target is a reviewed game within 2× the unreviewed p50 (the review block is read from the stored derivation)`],
    },
    {
      title: 'Per-ply views of a reviewed game (issue 10), in process, 2,000-game store',
      columns: ['read', 'p50 ms', 'p99 ms'],
      rows: views.map(([name, t]) => [name, t.p50, t.p99]),
      notes: [
        `${CALLS} calls each over the games reviewed above; the views read the stored per-ply view (src/services/review/view.ts) and lay on the owner's side and clocks`,
        '"before" is the derivation the views ran per request until the view was stored, timed on the same games',
      ],
    },
  ];
}

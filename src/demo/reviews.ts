import { and, desc, eq } from 'drizzle-orm';
import { movesKey } from '../chess/pgn.js';
import { insertReviewJob } from '../services/review/index.js';
import { fullGameMoves } from '../services/games/index.js';
import { ownerReview } from '../services/review/index.js';
import { games, reviewJobs } from '../store/schema/index.js';
import { storeSourceReview } from '../services/review/index.js';
import type { DemoContext, DemoSeeder } from './seeder.js';
import { shippedReviews } from './shippedReviews.js';

/** How many of the demo owner's games get a real engine review. */
export const DEMO_REVIEWS = 5;

/** The demo games that get a review: the owner's most recent with at least 10 plies and distinct moves, with their moves. */
export function demoReviewCandidates(demo: Pick<DemoContext, 'store' | 'user'>): Array<{ row: typeof games.$inferSelect; key: string; startFen: string; movesUci: string[] }> {
  const rows = demo.store.db
    .select()
    .from(games)
    .where(and(eq(games.userId, demo.user.id), eq(games.movesSource, 'pgn')))
    .orderBy(desc(games.playedAt))
    .limit(50)
    .all();
  const out = [];
  const seen = new Set<string>();
  for (const row of rows) {
    const moves = fullGameMoves(demo.store, row);
    if (!moves || moves.movesUci.length < 10) continue;
    const key = movesKey(moves.startFen, moves.movesUci);
    // One review per move sequence: a repeated game is reviewed with its first.
    if (seen.has(key)) continue;
    seen.add(key);
    out.push({ row, key, startFen: moves.startFen, movesUci: moves.movesUci });
    if (out.length >= DEMO_REVIEWS) break;
  }
  return out;
}

/**
 * Reviews the demo owner's most recent games with full moves. Where the package ships the engine's output for
 * a game (src/demo/shippedReviews.ts, the real engine run by `npm run demo:reviews`) it is stored as a finished
 * review at once, so the first start shows reviewed games; any other candidate is queued, and the worker pool
 * in `serve` runs the engine on it (about 20 s a game), exactly as for a review the owner requests.
 * Nothing is invented here. Seeding spends no review allowance.
 */
export const seedReviews: DemoSeeder = (demo) => {
  const shipped = shippedReviews();
  const now = demo.clock.now().toISOString();
  let stored = 0;
  let queued = 0;
  demo.store.sqlite
    .transaction(() => {
      // Seeding twice does not queue more: the demo owner gets DEMO_REVIEWS in all.
      const existing = demo.store.db.select({ id: reviewJobs.id }).from(reviewJobs).where(eq(reviewJobs.userId, demo.user.id)).all().length;
      for (const { row, key, startFen, movesUci } of demoReviewCandidates(demo)) {
        if (existing + queued + stored >= DEMO_REVIEWS) break;
        const ready = shipped.get(key);
        if (ready && !ownerReview(demo.store, demo.user.id, key)) {
          storeSourceReview(demo.store, demo.user.id, key, ready, now);
          stored += 1;
          continue;
        }
        const done = ownerReview(demo.store, demo.user.id, key);
        const pending = demo.store.db
          .select({ id: reviewJobs.id })
          .from(reviewJobs)
          .where(and(eq(reviewJobs.userId, demo.user.id), eq(reviewJobs.movesKey, key)))
          .get();
        if (done || pending) continue;
        insertReviewJob(demo.store, demo.clock, {
          userId: demo.user.id,
          subjectKind: 'game',
          subjectId: row.id,
          movesKey: key,
          startFen,
          movesUci,
        });
        queued += 1;
      }
    })
    .immediate();
  if (stored) demo.log(`stored ${stored} shipped engine review(s) of the demo owner's games (data/demo/reviews.json.gz)`);
  if (queued) demo.log(`queued ${queued} engine review(s) of the demo owner's games; \`serve\` computes them with Stockfish (about 20 s each)`);
  if (!stored && !queued) demo.log('no demo game with full moves to review');
};

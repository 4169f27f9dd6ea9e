import { and, desc, eq } from 'drizzle-orm';
import { movesKey } from '../chess/pgn.js';
import { insertReviewJob } from '../services/review/index.js';
import { fullGameMoves } from '../services/games/index.js';
import { ownerReview } from '../services/review/index.js';
import { games, reviewJobs } from '../store/schema/index.js';
import type { DemoSeeder } from './seeder.js';

/** How many of the demo owner's games get a real engine review. */
export const DEMO_REVIEWS = 5;

/**
 * Queues real engine reviews for the demo owner's most recent games with full moves. Nothing is
 * computed here and no number is invented: the worker pool in `serve` runs the engine on them
 * (about 20 s a game with the bundled engine), exactly as for a review the owner requests.
 * Seeding spends no review allowance.
 */
export const seedReviews: DemoSeeder = (demo) => {
  const candidates = demo.store.db
    .select()
    .from(games)
    .where(and(eq(games.userId, demo.user.id), eq(games.movesSource, 'pgn')))
    .orderBy(desc(games.playedAt))
    .limit(50)
    .all();
  let queued = 0;
  demo.store.sqlite
    .transaction(() => {
      // Seeding twice does not queue more: the demo owner gets DEMO_REVIEWS in all.
      const existing = demo.store.db.select({ id: reviewJobs.id }).from(reviewJobs).where(eq(reviewJobs.userId, demo.user.id)).all().length;
      for (const row of candidates) {
        if (existing + queued >= DEMO_REVIEWS) break;
        const moves = fullGameMoves(demo.store, row);
        if (!moves || moves.movesUci.length < 10) continue;
        const key = movesKey(moves.startFen, moves.movesUci);
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
          startFen: moves.startFen,
          movesUci: moves.movesUci,
        });
        queued += 1;
      }
    })
    .immediate();
  demo.log(
    queued
      ? `queued ${queued} engine review(s) of the demo owner's games; \`serve\` computes them with Stockfish (about 20 s each)`
      : 'no demo game with full moves to review',
  );
};

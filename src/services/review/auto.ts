import { and, eq, gte, inArray, sql } from 'drizzle-orm';
import { movesKey } from '../../chess/pgn.js';
import type { AppDeps } from '../../context.js';
import type { Store } from '../../store/db.js';
import { reviewJobs, users } from '../../store/schema/index.js';
import { repeatEvery } from '../../timers.js';
import { fullGameMoves } from '../games/index.js';
import { unreviewedGames } from './bulk.js';
import { REVIEW_PRIORITY } from './queue.js';

/** How often `serve` looks for games to auto-review (new games arrive by sync, every few hours by default). */
export const AUTO_REVIEW_CHECK_MS = 60_000;

/** Start of the UTC day holding `now`, as stored timestamps are written (ISO, UTC). */
function utcDayStart(now: Date): string {
  return `${now.toISOString().slice(0, 10)}T00:00:00.000Z`;
}

/**
 * Auto reviews the owner was given today. Derived from the queue itself (jobs at auto priority
 * created since UTC midnight, whatever became of them), so the count survives restarts with no state
 * of its own, and a failed job still counts: a game that fails is not retried all day.
 */
export function autoReviewsToday(store: Store, userId: string, now: Date): number {
  const row = store.db
    .select({ n: sql<number>`count(*)` })
    .from(reviewJobs)
    .where(and(eq(reviewJobs.userId, userId), eq(reviewJobs.priority, REVIEW_PRIORITY.auto), gte(reviewJobs.createdAt, utcDayStart(now))))
    .get();
  return row?.n ?? 0;
}

/**
 * Queues, for every owner, up to `perDay` of their unreviewed games with moves (newest first), less
 * what they were given today. Jobs go in at auto priority, below API requests and the bulk CLI, so
 * they only ever use an idle engine. No allowance is spent: this is the owner's own server working
 * for them (as with the bulk CLI). A game with a job of this owner already queued, running or failed
 * is skipped (the failure stays visible; an API request can retry it). One transaction per owner.
 * Returns how many jobs were queued.
 */
export function queueAutoReviews(deps: Pick<AppDeps, 'store' | 'clock' | 'runtime'>, perDay: number): number {
  if (perDay <= 0) return 0;
  const { store, clock } = deps;
  let queued = 0;
  for (const { id: userId } of store.db.select({ id: users.id }).from(users).all()) {
    store.sqlite
      .transaction(() => {
        const left = perDay - autoReviewsToday(store, userId, clock.now());
        if (left <= 0) return;
        const held = new Set(
          store.db
            .select({ key: reviewJobs.movesKey })
            .from(reviewJobs)
            .where(and(eq(reviewJobs.userId, userId), inArray(reviewJobs.status, ['queued', 'running', 'failed'])))
            .all()
            .map((r) => r.key),
        );
        let given = 0;
        // Walk newest first; stop as soon as the day's share is queued (no need to read every game).
        for (const g of unreviewedGames(store, userId, {})) {
          if (given >= left) break;
          if (held.has(g.movesKey!)) continue;
          const moves = fullGameMoves(store, g);
          if (!moves || moves.movesUci.length === 0) continue;
          const key = movesKey(moves.startFen, moves.movesUci);
          if (held.has(key)) continue;
          deps.runtime.reviews.enqueue({
            userId, subjectKind: 'game', subjectId: g.id, movesKey: key, startFen: moves.startFen, movesUci: moves.movesUci, priority: REVIEW_PRIORITY.auto,
          });
          held.add(key);
          given += 1;
        }
        queued += given;
      })
      .immediate();
  }
  return queued;
}

/**
 * `serve`'s background auto review (CFP_AUTO_REVIEW=N, off at 0): checks every minute, so games a
 * sync brings in are queued soon after, and a new UTC day's share is queued soon after midnight.
 */
export function startAutoReview(deps: AppDeps, opts: { intervalMs?: number; onError?: (err: unknown) => void } = {}): { stop(): void } {
  const perDay = deps.config.autoReviewPerDay;
  if (perDay <= 0) return { stop: () => {} };
  const tick = () => {
    try {
      queueAutoReviews(deps, perDay);
    } catch (err) {
      (opts.onError ?? ((e) => console.error('[auto-review]', e)))(err);
    }
  };
  return repeatEvery(opts.intervalMs ?? AUTO_REVIEW_CHECK_MS, tick, { firstDelayMs: 5_000 });
}

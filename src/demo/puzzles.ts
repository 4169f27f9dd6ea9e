import { puzzleAttempts, ratingPoints } from '../store/schema/index.js';
import { addDays, isoDate } from '../services/common/index.js';
import type { DemoSeeder } from './seeder.js';

const DAYS = 150;
const ID_CHARS = 'abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789';

/**
 * Lichess puzzle activity for the demo owner: ~5 months of sessions, puzzles pitched around the
 * current rating, solved with the Elo expectation, the rating moving as lichess's does (roughly);
 * the day's closing puzzle rating as a series; and chess.com's tactics peak and low (all it publishes).
 */
export const seedDemoPuzzles: DemoSeeder = ({ store, clock, user, rng, log }) => {
  const today = isoDate(clock.now());
  let rating = Math.round(rng.normal(1650, 120));
  const attempts: Array<typeof puzzleAttempts.$inferInsert> = [];
  const points: Array<typeof ratingPoints.$inferInsert> = [];
  for (let d = DAYS; d >= 0; d -= 1) {
    const date = addDays(today, -d);
    if (!rng.chance(0.55)) continue;
    const count = rng.int(3, 18);
    let t = Date.parse(`${date}T00:00:00Z`) + rng.int(7, 21) * 3_600_000;
    for (let i = 0; i < count; i += 1) {
      t += rng.int(30, 240) * 1000;
      if (t > clock.now().getTime()) break;
      const puzzleRating = Math.round(rng.normal(rating, 180));
      const expected = 1 / (1 + 10 ** ((puzzleRating - rating) / 400));
      const win = rng.chance(expected);
      rating += Math.round(20 * ((win ? 1 : 0) - expected));
      const puzzleId = Array.from({ length: 5 }, () => rng.pick([...ID_CHARS])).join('');
      attempts.push({ userId: user.id, provider: 'siteB', puzzleId, attemptedAt: new Date(t).toISOString(), win, puzzleRating });
    }
    points.push({ userId: user.id, provider: 'siteB', series: 'puzzle', date, rating });
  }
  const peakDate = addDays(today, -rng.int(200, 900));
  points.push(
    { userId: user.id, provider: 'siteA', series: 'tactics-highest', date: peakDate, rating: rng.int(1900, 2350) },
    { userId: user.id, provider: 'siteA', series: 'tactics-lowest', date: addDays(peakDate, -rng.int(30, 400)), rating: rng.int(700, 1000) },
  );
  store.sqlite
    .transaction(() => {
      if (attempts.length) store.db.insert(puzzleAttempts).values(attempts).onConflictDoNothing().run();
      store.db.insert(ratingPoints).values(points).onConflictDoNothing().run();
    })
    .immediate();
  log(`puzzles: ${attempts.length} attempts, puzzle rating now ${rating}`);
};

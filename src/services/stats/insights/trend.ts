import type { z } from 'zod';
import type { TrendMonth } from '../../../../schemas/insights.js';
import { STAT_TIME_CLASSES, SYNCED_PROVIDERS, type StatTimeClass, type SyncedProvider } from '../../../../schemas/common.js';
import type { InsightGame } from './load.js';
import { round1 } from '../../common/index.js';


/**
 * Month by month (UTC), oldest first: games, score, accuracy and the rating after each month's last
 * game that records one, per provider and time class. `chrono` is oldest first.
 */
export function trend(chrono: readonly InsightGame[]): Array<z.infer<typeof TrendMonth>> {
  const months = new Map<string, { games: number; points: number; accSum: number; accGames: number; ratings: Map<string, number> }>();
  for (const g of chrono) {
    const key = g.playedAt.slice(0, 7);
    const m = months.get(key) ?? { games: 0, points: 0, accSum: 0, accGames: 0, ratings: new Map() };
    months.set(key, m);
    m.games += 1;
    m.points += g.result === 'win' ? 1 : g.result === 'draw' ? 0.5 : 0;
    if (g.accuracy !== null) {
      m.accSum += g.accuracy;
      m.accGames += 1;
    }
    // Later games overwrite earlier ones: the last rated game of the month stands.
    if (g.userRating !== null && g.ratingDelta !== null && (SYNCED_PROVIDERS as readonly string[]).includes(g.provider)) {
      m.ratings.set(`${g.provider} ${g.timeClass}`, g.userRating + g.ratingDelta);
    }
  }
  return [...months.entries()]
    .sort((a, b) => (a[0] < b[0] ? -1 : 1))
    .map(([month, m]) => ({
      month,
      games: m.games,
      score: round1((100 * m.points) / m.games),
      accuracy: { games: m.accGames, average: m.accGames ? round1(m.accSum / m.accGames) : null },
      ratings: SYNCED_PROVIDERS.flatMap((provider: SyncedProvider) =>
        STAT_TIME_CLASSES.flatMap((timeClass: StatTimeClass) => {
          const rating = m.ratings.get(`${provider} ${timeClass}`);
          return rating === undefined ? [] : [{ provider, timeClass, rating }];
        }),
      ),
    }));
}

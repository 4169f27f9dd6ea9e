import { issueToken } from '../auth/tokens.js';
import type { AppDeps, User } from '../context.js';
import { createUser } from '../services/accounts/index.js';
import { seedCoaching } from './coaching.js';
import { seedGames } from './games.js';
import { seedPrep } from './prep.js';
import { seedDemoPuzzles } from './puzzles.js';
import { seedDemoReports } from './reports.js';
import { seedReviews } from './reviews.js';
import { seedStudy } from './study.js';
import { seededRandom } from './rng.js';
import type { DemoSeeder } from './seeder.js';

/** Seeders in order: games first, everything else builds on them. */
// seedPrep comes last: it draws from the same random stream, so the seeders before it keep their data.
const SEEDERS: DemoSeeder[] = [seedGames, seedDemoPuzzles, seedStudy, seedCoaching, seedDemoReports, seedReviews, seedPrep];

export interface DemoOptions {
  games?: number;
  seed?: number;
  log?: (line: string) => void;
}

/** Creates a new demo owner with demo data and returns it with a fresh token. */
export async function seedDemo(deps: AppDeps, opts: DemoOptions = {}): Promise<{ user: User; token: string }> {
  const seed = opts.seed ?? 1;
  const n = deps.store.sqlite.prepare("SELECT count(*) AS n FROM users WHERE email LIKE 'demo%@example.com'").get() as { n: number };
  const user = createUser(deps.store, deps.clock, {
    displayName: 'Demo Player',
    email: n.n === 0 ? 'demo@example.com' : `demo+${n.n + 1}@example.com`,
  });
  const demo = { store: deps.store, clock: deps.clock, user, rng: seededRandom(seed), games: opts.games ?? 500, log: opts.log ?? ((l: string) => console.error(l)) };
  for (const seeder of SEEDERS) await seeder(demo);
  const { token } = issueToken(deps.store, deps.clock, user.id, 'demo');
  return { user, token };
}

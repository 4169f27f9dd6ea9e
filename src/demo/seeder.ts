import type { Clock } from '../clock.js';
import type { User } from '../context.js';
import type { Store } from '../store/db.js';
import type { Rng } from './rng.js';

/** What every demo seeder receives; each capability adds one seeder to src/demo/index.ts. */
export interface DemoContext {
  store: Store;
  clock: Clock;
  user: User;
  rng: Rng;
  /** How many games the caller asked for (default 500). */
  games: number;
  /** Progress lines go to stderr so stdout ends with the token alone. */
  log: (line: string) => void;
}

export type DemoSeeder = (demo: DemoContext) => void | Promise<void>;

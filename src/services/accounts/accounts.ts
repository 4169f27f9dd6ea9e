import { randomUUID } from 'node:crypto';
import { asc, eq } from 'drizzle-orm';
import type { Clock } from '../../clock.js';
import type { User } from '../../context.js';
import { ApiError } from '../../errors.js';
import type { Store } from '../../store/db.js';
import { users } from '../../store/schema/index.js';

export interface NewUser {
  displayName: string;
  email: string;
  usernameSiteA?: string | null;
  usernameSiteB?: string | null;
}

export function createUser(store: Store, clock: Clock, input: NewUser): User {
  const row: User = {
    id: randomUUID(),
    displayName: input.displayName,
    email: input.email,
    usernameSiteA: input.usernameSiteA ?? null,
    usernameSiteB: input.usernameSiteB ?? null,
    createdAt: clock.now().toISOString(),
  };
  try {
    store.db.insert(users).values(row).run();
  } catch (err) {
    if (String(err).includes('UNIQUE')) throw new ApiError(409, `an account with email ${input.email} exists already`);
    throw err;
  }
  return row;
}

/** The owner is the first account created; commands act on it unless told otherwise. */
export function ownerOrNamed(store: Store, email?: string): User | null {
  if (email) return store.db.select().from(users).where(eq(users.email, email)).get() ?? null;
  return store.db.select().from(users).orderBy(asc(users.createdAt), asc(users.id)).limit(1).get() ?? null;
}

/** The account with this id, or null. */
export function userById(store: Store, id: string): User | null {
  return store.db.select().from(users).where(eq(users.id, id)).get() ?? null;
}

import { randomBytes, randomUUID } from 'node:crypto';
import { and, eq, isNull } from 'drizzle-orm';
import type { Clock } from '../clock.js';
import type { Store } from '../store/db.js';
import { workerKeys, type WorkerKeyHolder } from '../store/schema/index.js';
import { preparedOnce } from '../store/prepared.js';
import { fingerprint } from './tokens.js';

/**
 * Review workers' keys (issue 36): what a machine running a fishnet client sends as
 * `Authorization: Bearer`. A prefix of their own (`cfpw_`), so a personal token (`cfp_…`) can never be
 * one and a worker key can never pass as a token; stored as the same SHA-256 fingerprint as tokens.
 * Not kept in memory between requests: a revocation from any process is refused on the next request.
 */
export const WORKER_KEY_PATTERN = /^cfpw_[A-Za-z0-9_-]{43}$/;
/**
 * A key's name: what the owner calls the machine (shown in lists; `worker-key revoke NAME`). It starts and ends with
 * a letter, digit, dot, dash or underscore: a trailing space would make two names look alike in `worker-key list`
 * (issue 44 item 12).
 */
export const WORKER_KEY_NAME = /^[\p{L}\p{N}](?:[\p{L}\p{N} ._-]{0,62}[\p{L}\p{N}._-])?$/u;

export type { WorkerKeyHolder };

export class WorkerKeyError extends Error {}

/** Creates a key for the owner's machine `name`; the key itself is returned once and never stored. */
export function issueWorkerKey(store: Store, clock: Clock, userId: string, name: string): { name: string; key: string } {
  if (!WORKER_KEY_NAME.test(name)) throw new WorkerKeyError('a worker key name is 1 to 64 letters, digits, spaces, dots, dashes or underscores, starting with a letter or digit and not ending with a space');
  const key = `cfpw_${randomBytes(32).toString('base64url')}`;
  const res = store.db
    .insert(workerKeys)
    .values({ id: randomUUID(), userId, name, fingerprint: fingerprint(key), createdAt: clock.now().toISOString() })
    .onConflictDoNothing()
    .run();
  if (res.changes === 0) throw new WorkerKeyError(`a live worker key is already named ${name}; revoke it first or choose another name`);
  return { name, key };
}

/**
 * A key's row by its fingerprint (unique), prepared once per store: a flood of strangers with made-up keys
 * costs one indexed read each, not a query built and prepared per request (src/http/strangerGate.ts).
 */
const keyQuery = (_db: Store['db'], sqlite: Store['sqlite']) =>
  sqlite.prepare<[string], WorkerKeyHolder & { revokedAt: string | null }>('SELECT id, user_id AS userId, name, revoked_at AS revokedAt FROM worker_keys WHERE fingerprint = ?');

/** The live key's holder, or null: malformed, unknown and revoked keys look the same. */
export function verifyWorkerKey(store: Store, key: string | undefined): WorkerKeyHolder | null {
  if (!key || !WORKER_KEY_PATTERN.test(key)) return null;
  const row = preparedOnce(store, keyQuery).get(fingerprint(key));
  return row && row.revokedAt === null ? { id: row.id, userId: row.userId, name: row.name } : null;
}

/** Whether this key was issued and has been revoked (fishnet's 403 "key disabled", apart from 401 "unknown key"). */
export function isRevokedWorkerKey(store: Store, key: string): boolean {
  if (!WORKER_KEY_PATTERN.test(key)) return false;
  return Boolean(preparedOnce(store, keyQuery).get(fingerprint(key))?.revokedAt);
}

/** Revokes the owner's live key of that name; false when there is none. Refused from the next request on, in every process. */
export function revokeWorkerKey(store: Store, clock: Clock, userId: string, name: string): boolean {
  return (
    store.db
      .update(workerKeys)
      .set({ revokedAt: clock.now().toISOString() })
      .where(and(eq(workerKeys.userId, userId), eq(workerKeys.name, name), isNull(workerKeys.revokedAt)))
      .run().changes > 0
  );
}

import { eq } from 'drizzle-orm';
import { afterEach, describe, expect, test } from 'vitest';
import { issueToken, listTokens, replaceNamedToken, verifyToken } from '../../src/auth/tokens.js';
import { tokens } from '../../src/store/schema/index.js';
import { openStore, storeFile } from '../../src/store/db.js';
import { makeTestApp, type TestApp } from '../helpers/app.js';

let app: TestApp;
afterEach(async () => app?.close());

/** The stamp is written after the current work (setImmediate): let it run. */
const settle = () => new Promise((r) => setImmediate(r));
const lastUsed = (id: string) => app.deps.store.db.select({ at: tokens.lastUsedAt }).from(tokens).where(eq(tokens.id, id)).get()!.at;

describe('tokens', () => {
  test('last_used_at: stamped on use, at most once a minute per token', async () => {
    app = makeTestApp({ now: '2026-11-20T12:00:00Z' });
    const { user } = app.addUser();
    const t = issueToken(app.deps.store, app.clock, user.id, 'laptop');
    expect(lastUsed(t.id)).toBeNull();
    expect(verifyToken(app.deps.store, t.token, app.clock)?.id).toBe(user.id);
    await settle();
    expect(lastUsed(t.id)).toBe('2026-11-20T12:00:00.000Z');
    app.clock.set('2026-11-20T12:00:59Z');
    verifyToken(app.deps.store, t.token, app.clock);
    await settle();
    expect(lastUsed(t.id)).toBe('2026-11-20T12:00:00.000Z');
    app.clock.set('2026-11-20T12:01:00Z');
    verifyToken(app.deps.store, t.token, app.clock);
    await settle();
    expect(lastUsed(t.id)).toBe('2026-11-20T12:01:00.000Z');
  });

  test('--expires-in: works until the instant it expires, then looks like any unknown token', () => {
    app = makeTestApp({ now: '2026-11-20T12:00:00Z' });
    const { user } = app.addUser();
    const t = issueToken(app.deps.store, app.clock, user.id, 'ci', { expiresInDays: 7 });
    expect(t.expiresAt).toBe('2026-11-27T12:00:00.000Z');
    app.clock.set('2026-11-27T11:59:59Z');
    expect(verifyToken(app.deps.store, t.token, app.clock)?.id).toBe(user.id);
    app.clock.set('2026-11-27T12:00:00Z');
    expect(verifyToken(app.deps.store, t.token, app.clock)).toBeNull();
    expect(listTokens(app.deps.store, user.id).find((r) => r.id === t.id)).toMatchObject({ expiresAt: '2026-11-27T12:00:00.000Z', revokedAt: null });
  });

  test('replacing a named token revokes the earlier ones of that name only', () => {
    app = makeTestApp();
    const { user } = app.addUser();
    const other = issueToken(app.deps.store, app.clock, user.id, 'laptop');
    const first = replaceNamedToken(app.deps.store, app.clock, user.id, 'claude-desktop');
    expect(first.revoked).toBe(0);
    const second = replaceNamedToken(app.deps.store, app.clock, user.id, 'claude-desktop');
    expect(second.revoked).toBe(1);
    expect(verifyToken(app.deps.store, first.token, app.clock)).toBeNull();
    expect(verifyToken(app.deps.store, second.token, app.clock)?.id).toBe(user.id);
    expect(verifyToken(app.deps.store, other.token, app.clock)?.id).toBe(user.id);
  });

  test('a verified token is kept, and refused on the very next check after a revocation, expiry change or deletion from any connection', () => {
    app = makeTestApp({ now: '2026-11-20T12:00:00Z' });
    const { user } = app.addUser();
    const other = app.addUser().user;
    const elsewhere = openStore(storeFile(app.dir));
    const sql = (text: string, ...args: unknown[]) => elsewhere.sqlite.prepare(text).run(...args);
    try {
      const cases: Array<[string, (id: string) => void]> = [
        ['revoked', (id) => sql("UPDATE tokens SET revoked_at = '2026-11-20T12:00:00.000Z' WHERE id = ?", id)],
        ['expiry moved into the past', (id) => sql("UPDATE tokens SET expires_at = '2026-11-20T11:00:00.000Z' WHERE id = ?", id)],
        ['deleted', (id) => sql('DELETE FROM tokens WHERE id = ?', id)],
        ['given to another user', (id) => sql('UPDATE tokens SET user_id = ? WHERE id = ?', other.id, id)],
      ];
      for (const [why, end] of cases) {
        const t = issueToken(app.deps.store, app.clock, user.id, why);
        expect(verifyToken(app.deps.store, t.token, app.clock)?.id, why).toBe(user.id);
        expect(verifyToken(app.deps.store, t.token, app.clock)?.id, why).toBe(user.id);
        end(t.id);
        expect(verifyToken(app.deps.store, t.token, app.clock)?.id ?? null, why).toBe(why === 'given to another user' ? other.id : null);
      }
      // A change to the user shows on the next check: the user is not served from before it.
      const t = issueToken(app.deps.store, app.clock, user.id, 'profile');
      expect(verifyToken(app.deps.store, t.token, app.clock)?.displayName).not.toBe('Renamed');
      sql("UPDATE users SET display_name = 'Renamed' WHERE id = ?", user.id);
      expect(verifyToken(app.deps.store, t.token, app.clock)?.displayName).toBe('Renamed');

      // It is kept: with the trigger that bumps the account version on a revocation gone, a revocation
      // goes unseen by a token verified before it (and is seen by the control, never verified before).
      const kept = issueToken(app.deps.store, app.clock, user.id, 'kept');
      const control = issueToken(app.deps.store, app.clock, user.id, 'control');
      expect(verifyToken(app.deps.store, kept.token, app.clock)?.id).toBe(user.id);
      sql('DROP TRIGGER owner_stamps_tokens_update');
      sql("UPDATE tokens SET revoked_at = '2026-11-20T12:00:00.000Z' WHERE id IN (?, ?)", kept.id, control.id);
      expect(verifyToken(app.deps.store, kept.token, app.clock)?.id).toBe(user.id);
      expect(verifyToken(app.deps.store, control.token, app.clock)).toBeNull();
    } finally {
      elsewhere.close();
    }
  });
});

import { eq } from 'drizzle-orm';
import { afterEach, describe, expect, test } from 'vitest';
import { issueToken, listTokens, replaceNamedToken, verifyToken } from '../../src/auth/tokens.js';
import { tokens } from '../../src/store/schema/index.js';
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
});

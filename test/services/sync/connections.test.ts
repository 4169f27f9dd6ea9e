import { eq } from 'drizzle-orm';
import { afterEach, describe, expect, it } from 'vitest';
import { revealSourceToken } from '../../../src/store/storedSecrets.js';
import { connectSource } from '../../../src/services/sync/connections.js';
import { connections, users } from '../../../src/store/schema/index.js';
import { makeTestApp, type TestApp } from '../../helpers/app.js';

let app: TestApp;
afterEach(async () => app?.close());

describe('connect a source', () => {
  it('records the connection, sets the profile username, and re-pointing starts the cursor over', () => {
    app = makeTestApp();
    const { user } = app.addUser();
    const c = connectSource(app.deps, user.id, 'siteB', 'RookRanger42', 'lip_x');
    expect(c).toMatchObject({ provider: 'siteB', externalId: 'RookRanger42', status: 'never-synced', lastSyncedAt: null, cursor: '{}', connectedAt: '2026-11-20T12:00:00.000Z' });
    // The lichess token is stored sealed (AES-256-GCM under the store key), never in clear.
    expect(c.sourceToken).toMatch(/^enc:v1:/);
    expect(revealSourceToken(app.deps.store, c.sourceToken)).toBe('lip_x');
    connectSource(app.deps, user.id, 'siteA', 'PawnStormPilot');
    const u = app.deps.store.db.select().from(users).where(eq(users.id, user.id)).get()!;
    expect([u.usernameSiteA, u.usernameSiteB]).toEqual(['PawnStormPilot', 'RookRanger42']);

    app.deps.store.db.update(connections).set({ cursor: '{"since":5}', status: 'ok', lastSyncedAt: 'x' }).where(eq(connections.id, c.id)).run();
    // Same account (case aside): the cursor stays; the token is kept when not given.
    const same = connectSource(app.deps, user.id, 'siteB', 'rookranger42');
    expect(same).toMatchObject({ id: c.id, cursor: '{"since":5}', status: 'ok' });
    expect(revealSourceToken(app.deps.store, same.sourceToken)).toBe('lip_x');
    // Another account: one row per source, started over.
    expect(connectSource(app.deps, user.id, 'siteB', 'OtherUser')).toMatchObject({ id: c.id, externalId: 'OtherUser', cursor: '{}', status: 'never-synced', lastSyncedAt: null });
    expect(app.deps.store.db.select().from(connections).where(eq(connections.userId, user.id)).all()).toHaveLength(2);
  });

  it.each([
    ['fed', '998877', 200],
    ['fed', '998877c', 200],
    ['fed', '99887', 400],
    ['fed', '998877I', 400], // I is not a check letter
    ['siteA', 'a', 400],
    ['siteA', 'has space', 400],
    ['siteA', 'Castle_Crusher', 200],
  ] as const)('%s %s → %i', (provider, id, status) => {
    app = makeTestApp();
    const { user } = app.addUser();
    if (status === 200) expect(connectSource(app.deps, user.id, provider, id).externalId).toBe(provider === 'fed' ? id.toUpperCase() : id);
    else expect(() => connectSource(app.deps, user.id, provider, id)).toThrow(expect.objectContaining({ status: 400 }));
  });

  it('only lichess takes a token', () => {
    app = makeTestApp();
    const { user } = app.addUser();
    expect(() => connectSource(app.deps, user.id, 'siteA', 'PawnStormPilot', 't')).toThrow('only lichess (siteB) takes an API token');
  });
});

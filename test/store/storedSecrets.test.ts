import { createHash } from 'node:crypto';
import { readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { eq } from 'drizzle-orm';
import { afterEach, describe, expect, test } from 'vitest';
import { WeeklyReport } from '../../schemas/aggregates.js';
import { createAppDeps } from '../../src/app.js';
import { loadSecretKey, seal, shareTokenFor, unseal } from '../../src/store/secretKey.js';
import { revealSourceToken } from '../../src/store/storedSecrets.js';
import { connectSource } from '../../src/services/sync/connections.js';
import { renderReportPage } from '../../src/services/reports/reportPage.js';
import { generateReport } from '../../src/services/reports/reports.js';
import { openStore, storeFile } from '../../src/store/db.js';
import { connections, weeklyReports } from '../../src/store/schema/index.js';
import { getWeeklyReport } from '../../tools/aggregates/get_weekly_report.js';
import { makeTestApp, type TestApp } from '../helpers/app.js';

let app: TestApp;
afterEach(async () => app?.close());

describe('the store key', () => {
  test('32 random bytes in secret.key, 0600, the same on every open', () => {
    app = makeTestApp();
    const file = join(app.dir, 'secret.key');
    expect(statSync(file).mode & 0o777).toBe(0o600);
    expect(loadSecretKey(app.dir).equals(app.deps.store.key)).toBe(true);
    expect(Buffer.from(readFileSync(file, 'utf8').trim(), 'base64')).toHaveLength(32);
  });

  test('sealing: a fresh nonce each time, opened only under the same key, altered text refused', () => {
    const key = Buffer.alloc(32, 7);
    const a = seal(key, 'lip_secret');
    const b = seal(key, 'lip_secret');
    expect(a).not.toBe(b);
    expect(a).not.toContain('lip_secret');
    expect(unseal(key, a)).toBe('lip_secret');
    expect(unseal(Buffer.alloc(32, 8), a)).toBeNull();
    const flipped = a.slice(0, -2) + (a.at(-2) === 'A' ? 'B' : 'A') + a.at(-1);
    expect(unseal(key, flipped)).toBeNull();
  });

  test('share tokens: 43 URL-safe characters, one per report, depending on the key', () => {
    const k1 = Buffer.alloc(32, 1);
    expect(shareTokenFor(k1, 'r1')).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(shareTokenFor(k1, 'r1')).toBe(shareTokenFor(k1, 'r1'));
    expect(shareTokenFor(k1, 'r2')).not.toBe(shareTokenFor(k1, 'r1'));
    expect(shareTokenFor(Buffer.alloc(32, 2), 'r1')).not.toBe(shareTokenFor(k1, 'r1'));
  });
});

describe('a store written before secrets were protected', () => {
  test('its clear lichess token is sealed and its clear share token replaced by a fingerprint, at start', async () => {
    app = makeTestApp({ now: '2026-11-21T00:05:00Z' });
    const { user, token } = app.addUser();
    const c = connectSource(app.deps, user.id, 'siteB', 'RookRanger42');
    const { row } = generateReport(app.deps.store, app.clock, user.id, '2026-11-20');
    // What an older version wrote: the token and the share token in clear, the link frozen in the payload.
    const legacy = 'A'.repeat(43);
    app.deps.store.db.update(connections).set({ sourceToken: 'lip_clear' }).where(eq(connections.id, c.id)).run();
    app.deps.store.db
      .update(weeklyReports)
      .set({ shareToken: legacy, payload: JSON.stringify({ ...JSON.parse(row.payload), shareUrl: `http://127.0.0.1:3000/share/reports/${legacy}` }) })
      .where(eq(weeklyReports.id, row.id))
      .run();

    const lines: string[] = [];
    const errors = console.error;
    console.error = (l: string) => void lines.push(l);
    const deps = (() => {
      try {
        return createAppDeps(app.config, { clock: app.clock, store: app.deps.store });
      } finally {
        console.error = errors;
      }
    })();
    expect(lines.join('\n')).toMatch(/sealed 1 lichess token/);
    expect(lines.join('\n')).toMatch(/replaced 1 weekly-report share token/);

    const stored = deps.store.db.select().from(connections).where(eq(connections.id, c.id)).get()!;
    expect(stored.sourceToken).toMatch(/^enc:v1:/);
    expect(revealSourceToken(deps.store, stored.sourceToken)).toBe('lip_clear');
    const report = deps.store.db.select().from(weeklyReports).where(eq(weeklyReports.id, row.id)).get()!;
    expect(report.shareToken).toMatch(/^[0-9a-f]{64}$/);
    // The frozen link is not served any more: the link is built when read, and the old token opens nothing.
    const served = WeeklyReport.parse((await app.call(getWeeklyReport, {}, token, { surface: 'rest', key: 't', origin: 'http://127.0.0.1:4000' })).body);
    const fresh = served.shareUrl.split('/').at(-1)!;
    expect(served.shareUrl).toBe(`http://127.0.0.1:4000/share/reports/${fresh}`);
    expect(report.shareToken).toBe(createHash('sha256').update(fresh).digest('hex'));
    expect(renderReportPage(deps.store, legacy)).toBeNull();
    expect(renderReportPage(deps.store, fresh)).toContain('<!doctype html>');

    // A second start changes nothing more.
    const again: string[] = [];
    console.error = (l: string) => void again.push(l);
    try {
      createAppDeps(app.config, { clock: app.clock, store: app.deps.store });
    } finally {
      console.error = errors;
    }
    expect(again).toEqual([]);
  });
});

describe('private files', () => {
  test.skipIf(process.platform === 'win32')('a new store: folder 0700, database, WAL and SHM 0600', () => {
    app = makeTestApp();
    // A folder that does not exist yet (mkdtemp's own folder is 0700 already), under the usual umask 022.
    const dir = join(app.dir, 'fresh', 'data');
    const store = openStore(storeFile(dir));
    // While it is open (closing removes the WAL and SHM files).
    try {
      expect(statSync(dir).mode & 0o777).toBe(0o700);
      for (const f of ['', '-wal', '-shm']) expect(statSync(storeFile(dir) + f).mode & 0o777).toBe(0o600);
    } finally {
      store.close();
    }
    expect(statSync(join(dir, 'secret.key')).mode & 0o777).toBe(0o600);
  });

  test.skipIf(process.platform === 'win32')('an older store left 0755/0644 is made private at start, saying so', async () => {
    app = makeTestApp();
    const { chmodSync } = await import('node:fs');
    const file = storeFile(app.dir);
    chmodSync(app.dir, 0o755);
    for (const f of ['', '-wal', '-shm']) chmodSync(file + f, 0o644);
    const lines: string[] = [];
    const store = openStore(file, { log: (l) => lines.push(l) });
    store.close();
    expect(statSync(app.dir).mode & 0o777).toBe(0o700);
    for (const f of ['', '-wal', '-shm']) expect(statSync(file + f).mode & 0o777).toBe(0o600);
    expect(lines).toContain(`made ${app.dir} private: mode 700 (was 755)`);
    expect(lines).toContain(`made ${file} private: mode 600 (was 644)`);
    expect(lines).toContain(`made ${file}-wal private: mode 600 (was 644)`);
  });
});

import { createHash } from 'node:crypto';
import { afterEach, describe, expect, test } from 'vitest';
import { WeeklyReport } from '../../schemas/aggregates.js';
import type { Listening } from '../../src/http/listen.js';
import { generateReport } from '../../src/services/reports/reports.js';
import { packageJson } from '../../src/paths.js';
import { Chess } from 'chess.js';
import { issueWorkerKey, verifyWorkerKey } from '../../src/auth/workerKeys.js';
import { insertReviewJob } from '../../src/services/review/index.js';
import { touchKey } from '../../src/services/workers/index.js';
import { makeTestApp, type TestApp } from '../helpers/app.js';
import { startServer } from '../helpers/server.js';

const START = new Chess().fen();

let app: TestApp;
let server: Listening;
afterEach(async () => {
  await server?.close();
  await app?.close();
});

describe('GET /health', () => {
  test('without a token: up or down and nothing else; with a token: the engine and that owner’s own figures only', async () => {
    app = makeTestApp({ env: { CFP_ENGINE_WORKERS: '3' } });
    const p = app.addUser('Ann Secretname', 'ann@example.test');
    const q = app.addUser('Bob', 'bob@example.test');
    // Q has two reviews waiting and a worker heard from just now; P has none.
    for (const id of ['g1', 'g2']) insertReviewJob(app.deps.store, app.clock, { userId: q.user.id, subjectKind: 'game', subjectId: id, movesKey: `k${id}`, startFen: START, movesUci: id === 'g1' ? ['e2e4'] : ['d2d4'] });
    const { key } = issueWorkerKey(app.deps.store, app.clock, q.user.id, 'laptop');
    touchKey({ store: app.deps.store, clock: app.clock, settings: app.config.reviewWorkers, holder: verifyWorkerKey(app.deps.store, key)!, userAgent: 'test' });
    server = await startServer(app);
    const res = await fetch(`${server.url}/health`);
    expect(res.status).toBe(200);
    expect(res.headers.get('cache-control')).toBe('no-store');
    const text = await res.text();
    expect(JSON.parse(text)).toEqual({ status: 'ok', version: packageJson.version, store: 'ok' });
    expect(text).not.toMatch(/Secretname|example\.test|cfp-test-/);
    const as = async (token: string) => (await fetch(`${server.url}/health`, { headers: { authorization: `Bearer ${token}` } })).json();
    expect(await as(p.token)).toEqual({
      status: 'ok',
      version: packageJson.version,
      store: 'ok',
      engine: { kind: 'wasm', workers: 3, nodesPerPosition: 30_000, reviewsPending: 0, reviewWorkersConnected: 0 },
    });
    expect((await as(q.token)).engine).toMatchObject({ reviewsPending: 2, reviewWorkersConnected: 1 });
    const bad = await fetch(`${server.url}/health`, { headers: { authorization: 'Bearer cfp_nope' } });
    expect(bad.status).toBe(401);
    expect(await bad.json()).toHaveProperty('error');
  });

  test('503 degraded when the store does not answer', async () => {
    app = makeTestApp();
    server = await startServer(app);
    app.deps.store.sqlite.close();
    const res = await fetch(`${server.url}/health`);
    expect(res.status).toBe(503);
    expect(await res.json()).toMatchObject({ status: 'degraded', store: 'unavailable' });
  });
});

describe('share links over HTTP', () => {
  test('the REST answer links to the origin that served it, and that link opens the page', async () => {
    app = makeTestApp({ now: '2026-11-21T00:05:00Z' });
    const { token, user } = app.addUser();
    generateReport(app.deps.store, app.clock, user.id, '2026-11-20');
    server = await startServer(app);
    const res = await fetch(`${server.url}/api/v1/me/report/latest`, { headers: { authorization: `Bearer ${token}` } });
    const report = WeeklyReport.parse(await res.json());
    expect(report.shareUrl.startsWith(`${server.url}/share/reports/`)).toBe(true);
    // Not the default 127.0.0.1:3000: the port this server really listens on.
    expect(server.url).not.toBe('http://127.0.0.1:3000');
    const page = await fetch(report.shareUrl);
    expect(page.status).toBe(200);
    const html = await page.text();
    expect(html).toContain('Chess week 2026-11-14 to 2026-11-20');
    // The dashboard's protections (issue 30): no sniffing, no framing, a CSP with no script and no
    // 'unsafe-inline': only this page's own inline styles, each by its SHA-256.
    expect(page.headers.get('x-content-type-options')).toBe('nosniff');
    expect(page.headers.get('x-frame-options')).toBe('DENY');
    const csp = page.headers.get('content-security-policy') ?? '';
    expect(csp).toMatch(/default-src 'none'/);
    expect(csp).toMatch(/frame-ancestors 'none'/);
    expect(csp).not.toMatch(/unsafe-inline|script-src/);
    const styleBlock = /<style>([\s\S]*?)<\/style>/.exec(html)![1];
    expect(csp).toContain(`'sha256-${createHash('sha256').update(styleBlock).digest('base64')}'`);
  });
});

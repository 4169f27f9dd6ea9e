import { createHash } from 'node:crypto';
import { afterEach, describe, expect, test } from 'vitest';
import { WeeklyReport } from '../../schemas/aggregates.js';
import type { Listening } from '../../src/http/listen.js';
import { generateReport } from '../../src/services/reports/reports.js';
import { packageJson } from '../../src/paths.js';
import { makeTestApp, type TestApp } from '../helpers/app.js';
import { startServer } from '../helpers/server.js';

let app: TestApp;
let server: Listening;
afterEach(async () => {
  await server?.close();
  await app?.close();
});

describe('GET /health', () => {
  test('no token needed; status, version, store and engine, nothing personal', async () => {
    app = makeTestApp({ env: { CFP_ENGINE_WORKERS: '3' } });
    app.addUser('Ann Secretname', 'ann@example.test');
    server = await startServer(app);
    const res = await fetch(`${server.url}/health`);
    expect(res.status).toBe(200);
    expect(res.headers.get('cache-control')).toBe('no-store');
    const text = await res.text();
    expect(JSON.parse(text)).toEqual({
      status: 'ok',
      version: packageJson.version,
      store: 'ok',
      engine: { kind: 'wasm', workers: 3, nodesPerPosition: 30_000, reviewsPending: 0, reviewWorkersConnected: 0 },
    });
    expect(text).not.toMatch(/Secretname|example\.test|cfp-test-/);
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

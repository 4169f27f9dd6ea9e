/// <reference lib="dom" />
import { mkdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Browser, Page } from 'puppeteer-core';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { buildDashboard } from '../../web/build.js';
import { signInLink } from '../../src/cli/signInLink.js';
import type { Listening } from '../../src/http/listen.js';
import { PeerRuns, setPeerRuns } from '../../src/services/peers/index.js';
import { recordFailure } from '../../src/services/peers/failures.js';
import { connectSource } from '../../src/services/sync/connections.js';
import { makeTestApp, type TestApp } from '../helpers/app.js';
import { fixturePath } from '../helpers/fixtures.js';
import { startFixtureServer, type FixtureServer } from '../helpers/fixtureServer.js';
import { addGames, gameRow } from '../helpers/games.js';
import { startServer } from '../helpers/server.js';
import { findChromium, launchChromium, screenshotDir } from './browser.js';

// The Openings page's "At your level" column and findings (issue 40) in Debian's Chromium, against a
// local explorer serving lichess's real example answer (test/fixtures/explorer/SOURCE.md); and a failed
// explorer fetch's stored reason shown on the page, as text (issue 44 item 7). Screenshots at
// 1280 and 390 px wide go to docs/img/peers/ under `npm run screenshots` (a temporary folder otherwise) for a person to look at.

const chromium = findChromium();
const OUTPUT = screenshotDir('peers');
const LICHESS = readFileSync(fixturePath('explorer', 'lichess.example.json'), 'utf8');
const SLAV_EXCHANGE = 'rnbqkbnr/pp2pppp/2p5/3P4/3P4/8/PP2PPPP/RNBQKBNR b KQkq';
const EMPTY = JSON.stringify({ white: 0, draws: 0, black: 0, moves: [], opening: null });

describe.skipIf(!chromium)('the Openings page at your level in Chromium', { timeout: 60_000 }, () => {
  let app: TestApp;
  let explorer: FixtureServer;
  let server: Listening;
  let browser: Browser;
  let closeBrowser: () => Promise<void>;
  let runs: PeerRuns;
  const errors: string[] = [];

  beforeAll(async () => {
    await buildDashboard();
    explorer = await startFixtureServer();
    explorer.route('/lichess', (_req, res, url) => void res.writeHead(200, { 'content-type': 'application/json' }).end((url.searchParams.get('fen') ?? '').startsWith(SLAV_EXCHANGE) ? LICHESS : EMPTY));
    app = makeTestApp({ env: { CFP_LICHESS_EXPLORER_URL: explorer.url } });
    runs = new PeerRuns(app.deps, { sleep: async () => {} });
    setPeerRuns(app.deps, runs);
    server = await startServer(app);
    ({ browser, close: closeBrowser } = await launchChromium(chromium!));
    mkdirSync(OUTPUT, { recursive: true });
  });
  afterAll(async () => {
    runs?.stop();
    await closeBrowser?.();
    await server?.close();
    await explorer?.close();
    await app?.close();
  });

  async function signedIn(userId: string, width: number): Promise<Page> {
    const page = await (await browser.createBrowserContext()).newPage();
    page.setDefaultTimeout(15_000);
    await page.setViewport({ width, height: 900 });
    page.on('pageerror', (e) => errors.push(String(e)));
    await page.goto(signInLink(app.deps, server.url, userId));
    await page.waitForSelector('main');
    return page;
  }

  /** Opens the line, which starts the explorer fetch (the card says so), waits for the fetch, and opens it again. */
  async function openedAfterFetch(userId: string, url: string, ready: string): Promise<Page> {
    const page = await signedIn(userId, 1280);
    await page.goto(url);
    await page.waitForSelector('[data-testid="peers-message"]');
    await runs.settled(`${userId} black 1600 blitz `);
    await page.goto(url);
    await page.waitForSelector(ready);
    return page;
  }

  test('the column beside the owner’s moves and the ranked findings; screenshots at 1280 and 390', async () => {
    const { user } = app.addUser('Alice');
    connectSource(app.deps, user.id, 'siteB', 'alice', 'lip_alice');
    // As in test/services/peers: 11 games as black through 1.d4 d5 2.c4 c6 3.cxd5, then cxd5 ×5, Qxd5 ×3, c5 ×3.
    const played: Array<[string, 'win' | 'draw' | 'loss']> = [
      ['cxd5', 'win'], ['cxd5', 'win'], ['cxd5', 'draw'], ['cxd5', 'loss'], ['cxd5', 'loss'],
      ['Qxd5', 'loss'], ['Qxd5', 'loss'], ['Qxd5', 'draw'],
      ['c5', 'loss'], ['c5', 'win'], ['c5', 'loss'],
    ];
    addGames(app.deps.store, app.clock, played.map(([move, result], i) => gameRow(user.id, { sourceId: `s${i}`, colour: 'black', result, userRating: 1640, ratingDelta: i === 10 ? 10 : 3, playedAt: `2026-10-${10 + i}T12:00:00.000Z`, sanMoves: `d4 d5 c4 c6 cxd5 ${move}`, movesSource: 'pgn' })));

    const url = `${server.url}/openings?colour=black&moves=${encodeURIComponent('d4 d5 c4 c6 cxd5')}`;
    const page = await openedAfterFetch(user.id, url, '[data-testid="peers-finding"]');
    const rows = await page.$$eval('[data-testid="opening-tree"] tbody tr', (trs) => trs.map((tr) => [tr.querySelector('[data-san]')?.getAttribute('data-san'), [...tr.querySelectorAll('[data-testid="peers-cell"] span')].map((x) => x.textContent).join(' · ')]));
    // Share · score at 1600 blitz, worked by hand in test/services/peers/peers.test.ts.
    expect(rows).toEqual([
      ['cxd5', '89.7% · 47.2%'],
      ['c5', '0.2% · 36.3%'],
      ['Qxd5', '4.2% · 42.2%'],
    ]);
    const findings = await page.$$eval('[data-testid="peers-finding"]', (lis) => lis.map((li) => li.textContent));
    expect(findings).toHaveLength(2);
    expect(findings[0]).toContain('3…c5');
    expect(findings[0]).toContain('their best: Bg4 49.6%');
    expect(findings[1]).toContain('3…Qxd5');
    expect(await page.$eval('[data-testid="peers-level"]', (p) => p.textContent)).toContain('from lichess blitz rating 1650');
    await page.screenshot({ path: join(OUTPUT, 'openings-1280.png'), fullPage: true });

    const phone = await signedIn(user.id, 390);
    await phone.goto(url);
    await phone.waitForSelector('[data-testid="peers-finding"]');
    // Nothing wider than the screen.
    expect(await phone.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
    await phone.screenshot({ path: join(OUTPUT, 'openings-390.png'), fullPage: true });
    expect(errors).toEqual([]);
  });

  test('a failed explorer fetch: the page shows its stored reason and when it is tried again, as text', async () => {
    const { user } = app.addUser('Bea');
    connectSource(app.deps, user.id, 'siteB', 'bea', 'lip_bea');
    // Eight games through the line (PEER_MIN_OWNER_GAMES), so its positions are asked of the explorer.
    addGames(app.deps.store, app.clock, Array.from({ length: 8 }, (_, i) => gameRow(user.id, { sourceId: `f${i}`, colour: 'black', result: 'draw', userRating: 1640, playedAt: `2026-10-${10 + i}T12:00:00.000Z`, sanMoves: 'd4 d5 c4 c6 cxd5 cxd5', movesSource: 'pgn' })));
    // The explorer answers every position with a 500 whose body is markup: were any of it let through as HTML, an
    // element would appear and the handler would set the page's title.
    explorer.intercept((_req, res, url) => url.pathname === '/lichess' && (res.writeHead(500, { 'content-type': 'text/html' }).end('<img src=x onerror="document.title=\'pwned\'"><b id="from-explorer">oops</b>'), true));
    try {
      const url = `${server.url}/openings?colour=black&moves=${encodeURIComponent('d4 d5 c4 c6 cxd5')}`;
      const page = await openedAfterFetch(user.id, url, '[data-testid="peers-level"]');
      // The reason as stored (src/sources/failure.ts's wording for an HTTP error, the status named), and the back-off's
      // next try: the first failure waits one minute from the test clock's 12:00 (failures.ts, FIRST_BACKOFF_MS).
      const message = () => page.$$eval('[data-testid="peers-message"]', (ps) => ps.map((p) => p.textContent));
      expect(await message()).toEqual(['lichess answered an error: lichess opening explorer: HTTP 500 (1 failed try in a row; the next read after 2026-11-20T12:01:00.000Z tries again)']);
      expect(await page.$('[data-testid="peers-card"] img, #from-explorer')).toBeNull();

      // A stored reason carrying markup (another process or version may store any text) is shown as text, not markup.
      const markup = '<img src=x onerror="document.title=\'pwned\'"><b id="from-explorer">bold</b>';
      recordFailure(app.deps.store, user.id, `${user.id} black 1600 blitz `, app.clock.now(), 'error', `lichess answered an error: ${markup}`, null);
      await page.goto(url);
      await page.waitForSelector('[data-testid="peers-level"]');
      expect(await message()).toEqual([`lichess answered an error: ${markup} (2 failed tries in a row; the next read after 2026-11-20T12:02:00.000Z tries again)`]);
      expect(await page.$('[data-testid="peers-card"] img, #from-explorer')).toBeNull();
      expect(await page.title()).not.toBe('pwned');
      expect(errors).toEqual([]);
    } finally {
      explorer.intercept(null);
    }
  });
});

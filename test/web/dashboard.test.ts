/// <reference lib="dom" />
/// <reference lib="dom.iterable" />
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Browser, Page } from 'puppeteer-core';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { buildDashboard } from '../../web/build.js';
import { signInLink } from '../../src/cli/signInLink.js';
import { seedDemo } from '../../src/demo/index.js';
import type { User } from '../../src/context.js';
import type { Listening } from '../../src/http/listen.js';
import { importPgnLines } from '../../src/services/games/imports.js';
import { makeTestApp, type TestApp } from '../helpers/app.js';
import { startFixtureServer, type FixtureServer } from '../helpers/fixtureServer.js';
import { rest, startServer } from '../helpers/server.js';
import { findChromium, launchChromium } from './browser.js';

// The dashboard in a real headless Chromium (Debian's, through puppeteer-core) on a demo store:
// the walk the issue lists. Screenshots of every page go to test/output/ for a person to look at.

const chromium = findChromium();
const inCi = Boolean(process.env.CI) && !['false', '0'].includes(process.env.CI!);
if (!chromium && inCi) throw new Error('CI=true but no Chromium at /usr/bin/chromium: .ci/run installs it with apt-get');
if (!chromium) console.warn('dashboard browser tests skipped: no Chromium found (install Debian’s `chromium` or set CFP_CHROMIUM)');

const OUTPUT = join(import.meta.dirname, '..', 'output');
const DESKTOP = { width: 1280, height: 900 };
// The phone: 390×844 CSS pixels (an iPhone 12–15 class screen).
const PHONE = { width: 390, height: 844, isMobile: true, hasTouch: true, deviceScaleFactor: 1 };
const HOSTILE = '<img src=x onerror=alert(1)>';

let app: TestApp;
let sources: FixtureServer;
let server: Listening;
let browser: Browser;
let closeBrowser: () => Promise<void>;
let owner: User;
let token: string;
let reviewedId: string;
const dialogs: string[] = [];
const pageErrors: string[] = [];

async function newPage(context?: Awaited<ReturnType<Browser['createBrowserContext']>>): Promise<Page> {
  const page = await (context ?? browser).newPage();
  await page.setViewport(DESKTOP);
  page.setDefaultTimeout(15_000);
  page.on('dialog', async (d) => {
    dialogs.push(d.message());
    await d.dismiss();
  });
  page.on('pageerror', (e) => pageErrors.push(String(e)));
  page.on('console', (m) => {
    if (m.type() === 'error' && !/status of 40[13]/.test(m.text())) pageErrors.push(m.text());
  });
  return page;
}

const shot = (page: Page, name: string) => page.screenshot({ path: join(OUTPUT, `${name}.png`) as `${string}.png`, fullPage: true });

// `npm run screenshots` (CFP_SCREENSHOTS=1) also writes the pictures the README and docs/ show, from this
// same walk on the seeded demo, at the desktop viewport; they are committed, so an ordinary run leaves them be.
const DOC_IMG = join(import.meta.dirname, '..', '..', 'docs', 'img');
const docShot = async (page: Page, name: string) => {
  if (process.env.CFP_SCREENSHOTS !== '1') return;
  mkdirSync(DOC_IMG, { recursive: true });
  // The top of the page, as a visitor first sees it (a test may have scrolled to what it clicked).
  await page.evaluate(() => window.scrollTo(0, 0));
  await page.screenshot({ path: join(DOC_IMG, `${name}.png`) as `${string}.png` });
};

describe.skipIf(!chromium)('dashboard in Chromium', { timeout: 60_000 }, () => {
  let page: Page;

  beforeAll(async () => {
    mkdirSync(OUTPUT, { recursive: true });
    await buildDashboard();
    sources = await startFixtureServer();
    app = makeTestApp({
      now: '2026-11-21T12:00:00Z',
      env: {
        CFP_ENGINE_NODES: '2000',
        CFP_ENGINE_WORKERS: '1',
        // Sync now talks to a local server that knows no account (404): nothing leaves loopback.
        CFP_CHESSCOM_URL: sources.url,
        CFP_LICHESS_URL: sources.url,
        CFP_ECF_URL: sources.url,
        CFP_CHESSRESULTS_URL: sources.url,
      },
    });
    ({ user: owner, token } = await seedDemo(app.deps, { games: 60, seed: 5, log: () => {} }));
    // One demo review, by the bundled engine at a small node budget (the demo queues five).
    await app.deps.runtime.reviews.runOnce();
    reviewedId = (app.deps.store.sqlite.prepare("SELECT subject_id AS id FROM review_jobs WHERE status = 'complete'").get() as { id: string }).id;
    // A game whose source-supplied names are hostile markup, imported like any PGN.
    const pgn = `[Event "<script>alert(2)</script>"]\n[Site "?"]\n[Date "2026.11.19"]\n[White "Demo Player"]\n[Black "${HOSTILE}"]\n[Result "1-0"]\n\n1. e4 e5 2. Qh5 Nc6 3. Bc4 Nf6 4. Qxf7# 1-0\n`;
    const report = await importPgnLines(app.deps, owner, pgn.split('\n'), { as: 'white' });
    expect(report.imported).toBe(1);
    server = await startServer(app);
    ({ browser, close: closeBrowser } = await launchChromium(chromium!));
    page = await newPage();
  }, 120_000);

  afterAll(async () => {
    await closeBrowser?.();
    await server?.close();
    await sources?.close();
    await app?.close();
  });

  test('the one-time link signs in, leaves no code in the address, sets an HttpOnly SameSite=Strict cookie, and works once', async () => {
    const link = signInLink(app.deps, server.url, owner.id);
    await page.goto(link);
    await page.waitForSelector('[data-testid="rating-chart"]');
    expect(page.url()).toBe(`${server.url}/`);
    const [cookie] = await page.cookies();
    expect(cookie).toMatchObject({ name: 'cfp_session', httpOnly: true, sameSite: 'Strict' });
    expect(await page.evaluate(() => document.cookie)).toBe('');
    // The same link in another (fresh) browser context is refused.
    const other = await browser.createBrowserContext();
    const second = await newPage(other);
    await second.goto(link);
    await second.waitForSelector('[data-testid="signin-token"]');
    // In words, naming the command that prints a new link, no raw backticks (issue 45 item 4).
    const refused = await second.$eval('[role="alert"]', (e) => e.textContent ?? '');
    expect(refused).toMatch(/^That sign-in link has expired or was used already: .* run the sign-in-link command of chess-footprint /);
    expect(refused).not.toContain('`');
    await shot(second, 'signin');
    await other.close();
  });

  test('overview: one line per provider × time class, and the range selector redraws it', async () => {
    const lines = (await rest(server.url, '/api/v1/me/ratings?range=1y', { token })).body.lines.filter((l: { points: unknown[] }) => l.points.length > 0);
    expect(await page.$$eval('[data-testid="rating-chart"] path.series', (p) => p.length)).toBe(lines.length);
    // Round rating ticks (steps of 25 or more) and dates at month starts (a year: month names, the year at January).
    const ys = await page.$$eval('[data-testid="rating-chart"] [data-tick="y"]', (t) => t.map((x) => Number(x.textContent)));
    expect(ys.length).toBeGreaterThanOrEqual(3);
    const step = ys[1] - ys[0];
    expect([25, 50, 100, 200, 250, 500]).toContain(step);
    expect(ys.every((y, i) => y % step === 0 && (i === 0 || y - ys[i - 1] === step))).toBe(true);
    const xs = await page.$$eval('[data-testid="rating-chart"] [data-tick="x"]', (t) => t.map((x) => x.textContent!));
    expect(xs.length).toBeGreaterThanOrEqual(3);
    expect(xs.every((x) => /^(Jan|Feb|Mar|Apr|May|Jun|Jul|Aug|Sep|Oct|Nov|Dec|\d{4})$/.test(x))).toBe(true);
    await shot(page, 'overview');
    await docShot(page, 'overview');
    const all = (await rest(server.url, '/api/v1/me/ratings?range=all', { token })).body.lines.filter((l: { points: unknown[] }) => l.points.length > 0);
    await page.select('[data-testid="rating-range"]', 'all');
    await page.waitForFunction((n) => document.querySelectorAll('[data-testid="rating-chart"] path.series').length === n && document.querySelector('[data-testid="rating-chart"]')?.getAttribute('aria-label') === 'ratings, all', {}, all.length);
    expect(all.length).toBeGreaterThan(0);
  });

  test('games: a page of rows, a filter that narrows them, and a hostile opponent name shown as text', async () => {
    await page.goto(`${server.url}/games`);
    await page.waitForSelector('[data-testid="games-row"]');
    expect(await page.$$eval('[data-testid="games-row"]', (r) => r.length)).toBe(50);
    await shot(page, 'games');
    await docShot(page, 'games');
    const losses = (await rest(server.url, '/api/v1/me/games?result=loss', { token })).body.total as number;
    await page.select('[data-testid="filter-result"]', 'loss');
    await page.click('[data-testid="filter-apply"]');
    await page.waitForFunction(() => location.search === '?result=loss');
    await page.waitForFunction((n) => document.querySelectorAll('[data-testid="games-row"]').length === n, {}, Math.min(50, losses));
    expect(await page.$$eval('[data-testid="games-row"] td.result', (c) => [...new Set(c.map((x) => x.textContent))])).toEqual(['loss']);

    await page.goto(`${server.url}/games?opponent=${encodeURIComponent('<img')}`);
    await page.waitForSelector('[data-testid="games-row"]');
    expect(await page.$$eval('[data-testid="games-row"] td.opponent', (c) => c.map((x) => x.textContent))).toEqual([HOSTILE]);
    expect(await page.$$eval('main img, main script', (n) => n.length)).toBe(0);
    await page.click('[data-testid="games-row"] a');
    await page.waitForSelector('[data-testid="board"]');
    expect(await page.$eval('h1', (e) => e.textContent)).toBe(`You – ${HOSTILE}`);
    expect(await page.$eval('main', (e) => e.textContent)).toContain('<script>alert(2)</script>');
    expect(await page.$$eval('main img, main script', (n) => n.length)).toBe(0);
    await shot(page, 'game-hostile-names');
    expect(dialogs).toEqual([]);
    // Unreviewed: Request review queues it and shows its place in the shared queue (no worker runs in this test).
    await page.click('[data-testid="request-review"]');
    await page.waitForFunction(() => /^Queued: place \d+ in the review queue$/.test(document.querySelector('[data-testid="review-status"]')?.textContent ?? ''));
    const queue = (await rest(server.url, '/api/v1/settings/reviews', { token })).body;
    const id = new URL(page.url()).pathname.split('/').at(-1);
    const mine = queue.active.find((j: { subjectId: string }) => j.subjectId === id);
    expect(await page.$eval('[data-testid="review-status"]', (e) => e.textContent)).toBe(`Queued: place ${mine.position} in the review queue`);
  });

  test('a reviewed game: keys step the board through the moves and the graph marks the ply; moments hide the best move until asked', async () => {
    const analysis = (await rest(server.url, `/api/v1/me/games/${reviewedId}/analysis?limit=120`, { token })).body;
    const moments = (await rest(server.url, `/api/v1/me/games/${reviewedId}/critical-moments`, { token })).body;
    await page.goto(`${server.url}/games/${reviewedId}`);
    await page.waitForSelector('[data-testid="eval-graph"]');
    const fen = () => page.$eval('[data-testid="board"]', (b) => b.getAttribute('data-fen'));
    const graphPly = () => page.$eval('[data-testid="eval-graph"]', (g) => g.getAttribute('data-ply'));
    expect(await fen()).toBe(analysis.plies[0].fenBefore);
    for (let i = 0; i < 3; i++) await page.keyboard.press('ArrowRight');
    expect(await fen()).toBe(analysis.plies[2].fenAfter);
    expect(await graphPly()).toBe('3');
    await page.keyboard.press('ArrowLeft');
    expect(await fen()).toBe(analysis.plies[1].fenAfter);
    expect(await graphPly()).toBe('2');
    // The eval graph has one column per analysed ply; clicking one jumps there.
    expect(await page.$$eval('[data-testid="eval-graph"] .eval-hit', (r) => r.length)).toBe(analysis.plyCount);
    await page.click('[data-testid="eval-graph"] .eval-hit[data-ply="6"]');
    expect(await fen()).toBe(analysis.plies[5].fenAfter);
    // The scale: pawns from White's view, the level line labelled 0 in the middle of the graph.
    expect(await page.$$eval('[data-testid="eval-graph"] [data-pawns]', (t) => t.map((x) => x.textContent))).toEqual(['+5', '+2', '0', '−2', '−5']);
    expect(await page.$eval('[data-testid="eval-graph"] .eval-mid', (l) => [l.getAttribute('y1'), l.getAttribute('y2')])).toEqual(['80', '80']);
    // Every symbol in the move list is explained in the legend beside it, and only those.
    const marks = await page.$$eval('[data-testid="move-list"] .move .mark', (m) => [...new Set(m.map((x) => x.textContent))].sort());
    expect(marks.length).toBeGreaterThan(0);
    expect(await page.$$eval('[data-testid="move-legend"] .mark', (m) => m.map((x) => x.textContent).sort())).toEqual(marks);

    expect(await page.$$eval('[data-testid="moment"]', (m) => m.length)).toBe(moments.count);
    if (moments.count > 0) {
      const first = moments.moments[0];
      const hidden = await page.$eval('[data-testid="moment"] .answer', (a) => a.classList.contains('hidden'));
      expect(hidden).toBe(true);
      await page.click('[data-testid="moment-reveal"]');
      expect(await page.$eval('[data-testid="moment"] .answer', (a) => a.textContent)).toContain(`Best: ${first.bestMove.san}`);
    }
    await page.keyboard.press('Home');
    for (let i = 0; i < 8; i++) await page.keyboard.press('ArrowRight');
    await shot(page, 'game');
    await docShot(page, 'game');
  });

  test('settings: a token created in the page works against the REST API until it is revoked', async () => {
    await page.goto(`${server.url}/settings`);
    await page.waitForSelector('[data-testid="token-name"]');
    const before = await page.$$eval('[data-testid="token-row"]', (r) => r.length);
    await page.type('[data-testid="token-name"]', 'browser test');
    await page.click('[data-testid="token-create"]');
    await page.waitForSelector('[data-testid="token-created"]');
    const created = (await page.$eval('[data-testid="token-created"]', (e) => e.textContent))!;
    expect(created).toMatch(/^cfp_[A-Za-z0-9_-]{43}$/);
    await page.waitForFunction((n) => document.querySelectorAll('[data-testid="token-row"]').length === n, {}, before + 1);
    expect((await rest(server.url, '/api/v1/me', { token: created })).status).toBe(200);
    await shot(page, 'settings');
    const row = (await page.$$('[data-testid="token-row"]')).at(-1)!;
    expect(await row.evaluate((r) => r.textContent)).toContain('browser test');
    await (await row.$('[data-testid="token-revoke"]'))!.click();
    await page.waitForFunction(() => [...document.querySelectorAll('[data-testid="token-row"]')].at(-1)?.classList.contains('revoked'));
    const after = await rest(server.url, '/api/v1/me', { token: created });
    expect(after.status).toBe(401);
  });

  test('sync now shows progress and the outcome of each source', async () => {
    // Demo connections name made-up accounts and are never synced; point each source at another account first
    // (that makes it an ordinary connection, as a player who connects their own accounts would have).
    for (const [provider, account] of [['siteA', 'someone-else'], ['siteB', 'someone-else'], ['fed', '120787J']] as const) {
      const put = await rest(server.url, `/api/v1/settings/connections/${provider}`, { method: 'PUT', token, headers: { 'content-type': 'application/json' }, body: JSON.stringify({ account }) });
      expect(put.status).toBe(200);
      expect(put.body.status).toBe('never-synced');
    }
    await page.goto(`${server.url}/`);
    await page.waitForSelector('[data-testid="sync-now"]');
    // chess.com's archive list answers slowly, so the page shows the run in progress first.
    sources.route('prefix:/pub/player/', async (_req, res) => {
      await new Promise((r) => setTimeout(r, 1500));
      res.writeHead(404, { 'content-type': 'application/json' }).end('{"message":"not found"}');
    });
    await page.click('[data-testid="sync-now"]');
    await page.waitForFunction(() => document.querySelector('[data-testid="sync-status"]')?.textContent?.startsWith('chess.com: archives'));
    expect(await page.$eval('[data-testid="sync-now"]', (b) => (b as HTMLButtonElement).disabled)).toBe(true);
    await page.waitForSelector('[data-testid="sync-status"][data-state="done"]', { timeout: 20_000 });
    const text = await page.$eval('[data-testid="sync-status"]', (e) => e.textContent);
    // The local source server knows none of these accounts: every source reports its 404.
    expect(text).toContain('chess.com: failed — chess.com does not know this account (HTTP 404)');
    expect(text).toContain('lichess: failed');
    expect(sources.requests.length).toBeGreaterThan(0);
  });

  test('the games page filters on reviewed, from the list itself', async () => {
    // Independent of the column the filter reads: the games whose moves a completed review job covered.
    const expected = (
      app.deps.store.sqlite
        .prepare("SELECT id FROM games WHERE user_id = ? AND moves_key IN (SELECT g.moves_key FROM games g JOIN review_jobs j ON j.subject_id = g.id WHERE j.status = 'complete')")
        .all(owner.id) as Array<{ id: string }>
    ).map((r) => r.id);
    expect(expected).toContain(reviewedId);
    await page.goto(`${server.url}/games`);
    await page.waitForSelector('[data-testid="games-row"]');
    await page.select('[data-testid="filter-reviewed"]', 'yes');
    await page.click('[data-testid="filter-apply"]');
    await page.waitForFunction(() => location.search === '?reviewed=yes');
    await page.waitForFunction((n) => document.querySelectorAll('[data-testid="games-row"]').length === n, {}, expected.length);
    expect((await page.$$eval('[data-testid="games-row"]', (r) => r.map((x) => x.getAttribute('data-id')))).sort()).toEqual([...expected].sort());
    expect(await page.$$eval('[data-testid="games-row"] td.reviewed', (c) => [...new Set(c.map((x) => x.getAttribute('data-reviewed')))])).toEqual(['yes']);
    await page.select('[data-testid="filter-reviewed"]', 'no');
    await page.click('[data-testid="filter-apply"]');
    await page.waitForFunction(() => location.search === '?reviewed=no');
    await page.waitForSelector('[data-testid="games-row"]');
    const total = (await rest(server.url, '/api/v1/me/games', { token })).body.total as number;
    expect(await page.$eval('[data-testid="games-total"]', (e) => e.textContent)).toMatch(new RegExp(`^${total - expected.length} game`));
    expect(await page.$$eval('[data-testid="games-row"] td.reviewed', (c) => [...new Set(c.map((x) => x.getAttribute('data-reviewed')))])).toEqual(['no']);
  });

  test('a library game: the board steps through the moves, both accuracies, check marked at the mate', async () => {
    const slug = 'morphy-brunswick-isouard-1858';
    const accuracy = JSON.parse(readFileSync(join(import.meta.dirname, '..', '..', 'data', 'library', slug, 'accuracy.json'), 'utf8'));
    await page.goto(`${server.url}/library/${slug}`);
    await page.waitForSelector('[data-testid="move-list"]');
    // The Opera Game: 1.e4 … 17.Rd8#, 33 plies.
    expect(await page.$$eval('[data-testid="move-list"] .move', (m) => m.length)).toBe(33);
    expect(await page.$eval('[data-testid="move-list"] .move[data-ply="33"]', (m) => m.textContent)).toBe('Rd8#');
    expect(await page.$eval('[data-testid="accuracy"]', (e) => e.textContent)).toContain(`Accuracy: White ${accuracy.white}, Black ${accuracy.black}`);
    const fen = () => page.$eval('[data-testid="board"]', (b) => b.getAttribute('data-fen'));
    for (let i = 0; i < 3; i++) await page.click('[data-testid="next"]');
    expect(await fen()).toBe('rnbqkbnr/pppp1ppp/8/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R b KQkq - 1 2');
    expect(await page.$eval('[data-testid="ply-info"]', (e) => e.textContent)).toBe('2. Nf3');
    expect(await page.$$eval('[data-testid="board"] .sq.last', (s) => s.map((x) => x.getAttribute('data-square')).sort())).toEqual(['f3', 'g1']);
    await page.click('[data-testid="move-list"] .move[data-ply="33"]');
    // Rd8# leaves Black's king on e8 in check: its square is marked.
    expect(await page.$eval('[data-testid="board"]', (b) => b.getAttribute('data-check'))).toBe('e8');
    // Ten pieces a side are left (counted from the score: White lost a knight pair, the queen, a bishop, a rook, the d-pawn).
    expect(await page.$$eval('[data-testid="board"] g.piece', (p) => p.length)).toBe(20);
    expect(await page.$$eval('[data-testid="board"] text', (t) => t.map((x) => x.textContent).join(''))).toBe('a8b7c6d5e4f3g2h1');
    await shot(page, 'library-game-mate');
  });

  test('the opening tree: clicking a move follows the tree and the games that reached it', async () => {
    const rows = app.deps.store.sqlite.prepare("SELECT san_moves AS m FROM games WHERE user_id = ? AND colour = 'white' AND san_moves IS NOT NULL AND san_moves != ''").all(owner.id) as Array<{ m: string }>;
    const lines = rows.map((r) => r.m.split(' '));
    /** Next moves after a prefix, most games first (ties by SAN), counted here from the stored moves. */
    const nextAfter = (prefix: string[]) => {
      const counts = new Map<string, number>();
      for (const l of lines) if (prefix.every((m, i) => l[i] === m) && l[prefix.length]) counts.set(l[prefix.length], (counts.get(l[prefix.length]) ?? 0) + 1);
      return [...counts].sort((a, b) => b[1] - a[1] || a[0].localeCompare(b[0])).map(([san]) => san);
    };
    const reached = (prefix: string[]) => lines.filter((l) => prefix.every((m, i) => l[i] === m)).length;
    await page.goto(`${server.url}/openings`);
    await page.waitForSelector('[data-testid="tree-move"]');
    const sans = () => page.$$eval('[data-testid="tree-move"]', (b) => b.map((x) => x.getAttribute('data-san')));
    expect(await sans()).toEqual(nextAfter([]));
    // At the start the linked games are every game as White (with moves or not: the list cannot tell).
    const asWhite = (app.deps.store.sqlite.prepare("SELECT count(*) AS n FROM games WHERE user_id = ? AND colour = 'white'").get(owner.id) as { n: number }).n;
    expect(Number(await page.$eval('[data-testid="tree-games"]', (e) => e.getAttribute('data-total')))).toBe(asWhite);
    const first = nextAfter([])[0];
    await page.click(`[data-testid="tree-move"][data-san="${first}"]`);
    await page.waitForFunction((san) => document.querySelector('[data-testid="tree-line"]')?.textContent?.includes(`1.${san}`), {}, first);
    expect(await sans()).toEqual(nextAfter([first]));
    expect(Number(await page.$eval('[data-testid="tree-games"]', (e) => e.getAttribute('data-total')))).toBe(reached([first]));
    expect(await page.$$eval('[data-testid="tree-game"]', (g) => g.length)).toBe(Math.min(8, reached([first])));
    expect(new URL(page.url()).search).toBe(`?colour=white&moves=${first}`);
    const second = nextAfter([first])[0];
    await page.click(`[data-testid="tree-move"][data-san="${second}"]`);
    await page.waitForFunction((n) => document.querySelector('[data-testid="tree-games"]')?.getAttribute('data-total') === String(n), {}, reached([first, second]));
    expect(await sans()).toEqual(nextAfter([first, second]));
    // The board shows the line's position; a game link opens a game that played it.
    expect(await page.$eval('[data-testid="opening-tree"] [data-testid="board"]', (b) => b.getAttribute('aria-label'))).toBe(`position after ${first} ${second}`);
    await page.click('[data-testid="tree-game"] a');
    await page.waitForSelector('[data-testid="move-list"]');
    expect(await page.$$eval('[data-testid="move-list"] .move', (m) => m.slice(0, 2).map((x) => x.textContent?.replace(/[★!?×]+$/, '')))).toEqual([first, second]);
  });

  test('every page at 1280×900 and on a phone (390×844): no sideways scroll, a compact navigation, no script or CSP error', async () => {
    const slug = 'morphy-brunswick-isouard-1858';
    const hostileId = (app.deps.store.sqlite.prepare('SELECT id FROM games WHERE user_id = ? AND opponent = ?').get(owner.id, HOSTILE) as { id: string }).id;
    const pages = [
      ['/', 'overview', '[data-testid="rating-chart"]'],
      ['/games', 'games', '[data-testid="games-row"]'],
      [`/games/${reviewedId}`, 'game', '[data-testid="eval-graph"]'],
      [`/games/${hostileId}`, 'game-unreviewed', '[data-testid="move-list"]'],
      ['/openings', 'openings', '[data-testid="tree-move"]'],
      ['/insights', 'insights', 'svg.bars'],
      ['/study', 'study', 'main table'],
      ['/coaching', 'coaching', '[data-testid="board"]'],
      ['/library', 'library', 'main table'],
      [`/library/${slug}`, 'library-game', '[data-testid="move-list"]'],
      ['/tournaments', 'tournaments', 'main form'],
      ['/settings', 'settings', '[data-testid="token-name"]'],
    ] as const;
    const measures: Record<string, { scrollWidth: number; innerWidth: number; nav: number }> = {};
    for (const [viewport, suffix] of [[DESKTOP, ''], [PHONE, '-phone']] as const) {
      await page.setViewport(viewport);
      for (const [path, name, selector] of pages) {
        await page.goto(`${server.url}${path}`);
        await page.waitForSelector(selector);
        measures[`${name}${suffix}`] = await page.evaluate(() => ({ scrollWidth: document.documentElement.scrollWidth, innerWidth: window.innerWidth, nav: document.querySelector('header')!.getBoundingClientRect().height }));
        await shot(page, `${name}${suffix}`);
      }
    }
    await page.setViewport(DESKTOP);
    // Beside the screenshots, for a person to read: each page's width and header height.
    writeFileSync(join(OUTPUT, 'measures.json'), `${JSON.stringify(measures, null, 1)}\n`);
    for (const [name, m] of Object.entries(measures)) {
      expect(m.scrollWidth, name).toBeLessThanOrEqual(m.innerWidth);
      if (name.endsWith('-phone')) expect(m.nav, name).toBeLessThan(80);
    }
    expect(pageErrors).toEqual([]);
  }, 180_000);

  test('the overview names each game in the review queue and compares this week with last', async () => {
    await page.goto(`${server.url}/`);
    await page.waitForSelector('[data-testid="review-queue"] table');
    // The game queued by the games test: the owner (display name) had White on 2026-11-19.
    const names = await page.$$eval('[data-testid="review-queue"] td a', (a) => a.map((x) => x.textContent));
    expect(names).toContain(`Demo Player – ${HOSTILE}, 2026-11-19`);
    expect(await page.$$eval('[data-testid="review-queue"] td a', (a) => a.filter((x) => x.textContent === 'game').length)).toBe(0);
    const weeks = await page.$$eval('[data-testid="week-comparison"] tbody tr', (r) => r.map((x) => x.querySelector('td')!.textContent));
    expect(weeks).toHaveLength(2);
    // Day and month held together by a no-break space, so a date never splits across lines (issue 45 item 10).
    expect(weeks[0]).toMatch(/^This week so far \(from Sat \d+\u00a0\w+\)$/);
    expect(weeks[1]).toMatch(/^Last week \(\d+\u00a0\w+ – \d+\u00a0\w+\)$/);
  });

  test('sign out, then sign in by pasting a token', async () => {
    await page.goto(`${server.url}/settings`);
    await page.waitForSelector('[data-testid="sign-out"]');
    await page.click('[data-testid="sign-out"]');
    await page.waitForSelector('[data-testid="signin-token"]');
    expect((await page.goto(`${server.url}/api/v1/me`))!.status()).toBe(401);
    await page.goto(`${server.url}/`);
    await page.waitForSelector('[data-testid="signin-token"]');
    await page.setViewport(PHONE);
    await page.reload();
    await page.waitForSelector('[data-testid="signin-token"]');
    expect(await page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth)).toBe(true);
    await shot(page, 'signin-phone');
    await page.setViewport(DESKTOP);
    await page.type('[data-testid="signin-token"]', token);
    await page.click('[data-testid="signin-submit"]');
    await page.waitForSelector('[data-testid="rating-chart"]');
    expect(await page.$eval('.who', (e) => e.textContent)).toBe('Demo Player');
    expect(page.url()).not.toContain('cfp_');
  });
});

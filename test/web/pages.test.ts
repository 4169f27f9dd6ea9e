/// <reference lib="dom" />
/// <reference lib="dom.iterable" />
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import type { Browser, Page } from 'puppeteer-core';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { buildDashboard } from '../../web/build.js';
import { signInLink } from '../../src/cli/signInLink.js';
import { DEMO_SCOUT } from '../../src/demo/prep.js';
import { seedDemo } from '../../src/demo/index.js';
import type { User } from '../../src/context.js';
import type { Listening } from '../../src/http/listen.js';
import { makeTestApp, type TestApp } from '../helpers/app.js';
import { startFixtureServer, type FixtureServer } from '../helpers/fixtureServer.js';
import { rest, startServer } from '../helpers/server.js';
import { findChromium, launchChromium, screenshotDir } from './browser.js';

// Issue 39: every page reads like chess for a player. On a fresh demo store in Debian's Chromium, at
// 360, 390, 1024, 1280 and 1920 px: no element inside a card extends past the card, no visible text
// is a camelCase key, a float of more than two decimals or a bare true/false, and every tab of the
// navigation is in view. Screenshots of every page at 1280 and 390 go to docs/img/pages/ under `npm run screenshots`, elsewhere to a temporary folder (test/web/browser.ts).

const chromium = findChromium();
const SHOTS = screenshotDir('pages');
const WIDTHS = [360, 390, 1024, 1280, 1920] as const;
const SHOT_WIDTHS: ReadonlySet<number> = new Set([1280, 390]);

/** What a player must never read: a programmer's key, an unrounded float, a bare boolean. */
const CAMEL = /\b[a-z]+[A-Z][A-Za-z]*\b/;
const LONG_FLOAT = /\b\d+\.\d{3,}\b/;
const BARE_BOOLEAN = /^(true|false)$|[:=]\s*(true|false)\b/;

interface Finding {
  page: string;
  width: number;
  what: string;
}

/**
 * Runs in the page: every element inside each card (a section, a .card, a table, the main column)
 * whose box extends past the card's, and every visible text node that reads like debug output.
 * An element inside a scrolling box is measured against that box instead (it scrolls, it is not cut).
 */
function inspect(): { overflow: string[]; text: string[]; tabs: string[] } {
  const name = (el: Element) => `${el.tagName.toLowerCase()}${el.id ? `#${el.id}` : ''}${el.getAttribute('class') ? `.${String(el.getAttribute('class')).trim().split(/\s+/).join('.')}` : ''}${el.getAttribute('data-testid') ? `[${el.getAttribute('data-testid')}]` : ''}`;
  const visible = (el: Element) => {
    const r = el.getBoundingClientRect();
    if (r.width === 0 && r.height === 0) return false;
    const cs = getComputedStyle(el);
    return cs.visibility !== 'hidden' && cs.display !== 'none';
  };
  const overflow: string[] = [];
  const cards = [...document.querySelectorAll('main, main section, main .card, main table, main details')];
  for (const card of cards) {
    if (!visible(card)) continue;
    const box = card.getBoundingClientRect();
    for (const el of card.querySelectorAll('*')) {
      if (!visible(el)) continue;
      // Scrolling boxes (the move list) are their own card.
      let scroller: Element | null = el.parentElement;
      while (scroller && scroller !== card && !['auto', 'scroll', 'hidden'].includes(getComputedStyle(scroller).overflowX)) scroller = scroller.parentElement;
      if (scroller && scroller !== card) continue;
      const r = el.getBoundingClientRect();
      if (r.left < box.left - 0.5 || r.right > box.right + 0.5) overflow.push(`${name(el)} [${Math.round(r.left)}–${Math.round(r.right)}] past ${name(card)} [${Math.round(box.left)}–${Math.round(box.right)}]: "${(el.textContent ?? '').trim().slice(0, 40)}"`);
    }
  }
  const text: string[] = [];
  const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
  for (let n = walker.nextNode(); n; n = walker.nextNode()) {
    const t = (n.textContent ?? '').trim();
    const parent = n.parentElement;
    // A snippet to copy (the Claude Desktop entry, a command) is code on purpose: <pre>/<code> only.
    if (!t || !parent || !visible(parent) || parent.closest('script, style, title, textarea, option, pre, code')) continue;
    text.push(t);
  }
  const nav = document.querySelector('header nav')!.getBoundingClientRect();
  const tabs = [...document.querySelectorAll('header nav a')]
    .filter((a) => {
      const r = a.getBoundingClientRect();
      return r.left < Math.max(0, nav.left) - 0.5 || r.right > Math.min(window.innerWidth, nav.right) + 0.5 || r.width === 0;
    })
    .map((a) => a.textContent ?? '');
  return { overflow, text, tabs };
}

describe.skipIf(!chromium)('every page reads like chess, at every width', { timeout: 120_000 }, () => {
  let app: TestApp;
  let sources: FixtureServer;
  let server: Listening;
  let browser: Browser;
  let closeBrowser: () => Promise<void>;
  let page: Page;
  let owner: User;
  let token: string;
  let studyId: string;
  let gameId: string;
  const errors: string[] = [];

  beforeAll(async () => {
    mkdirSync(SHOTS, { recursive: true });
    await buildDashboard();
    sources = await startFixtureServer();
    // A scout of any other lichess player fails: the local source knows nobody.
    // (slowpoke answers after 2.5 s, so the page shows the scout in progress first.)
    sources.route('prefix:/api/games/user/', async (req, res) => {
      if (req.url?.includes('slowpoke')) await new Promise((r) => setTimeout(r, 2500));
      res.writeHead(404, { 'content-type': 'application/json' }).end('{"error":"Not found"}');
    });
    app = makeTestApp({ now: '2026-11-21T12:00:00Z', env: { CFP_ENGINE_NODES: '2000', CFP_ENGINE_WORKERS: '1', CFP_LICHESS_URL: sources.url, CFP_CHESSCOM_URL: sources.url, CFP_ECF_URL: sources.url, CFP_CHESSRESULTS_URL: sources.url } });
    // The demo as `npm start` makes it (seed 1, 500 games): its shipped reviews apply to these games.
    ({ user: owner, token } = await seedDemo(app.deps, { games: 500, seed: 1, log: () => {} }));
    server = await startServer(app);
    ({ browser, close: closeBrowser } = await launchChromium(chromium!));
    page = await browser.newPage();
    page.setDefaultTimeout(20_000);
    page.on('pageerror', (e) => errors.push(String(e)));
    page.on('console', (m) => {
      if (m.type() === 'error' && !/status of 404/.test(m.text())) errors.push(m.text());
    });
    await page.goto(signInLink(app.deps, server.url, owner.id));
    await page.waitForSelector('main');
    const study = (await rest(server.url, '/api/v1/me/study', { token })).body as { games: Array<{ id: string; notesCount: number }> };
    studyId = study.games.find((g) => g.notesCount > 0)!.id;
    gameId = ((await rest(server.url, '/api/v1/me/games?reviewed=yes', { token })).body as { games: Array<{ id: string }> }).games[0].id;
  }, 180_000);

  afterAll(async () => {
    await closeBrowser?.();
    await server?.close();
    await sources?.close();
    await app?.close();
  });

  test('the demo’s first start: a scouted opponent and a repertoire on Prep, marked demo', async () => {
    await page.setViewport({ width: 1280, height: 900 });
    await page.goto(`${server.url}/prep`);
    await page.waitForSelector('[data-testid="scout-results"]');
    await page.waitForSelector('[data-testid="tree-move"]');
    await page.waitForSelector('[data-testid="repertoire-line"]');
    const head = await page.$eval('.player-head', (e) => e.textContent);
    expect(head).toContain(`${DEMO_SCOUT.username} on lichess`);
    expect(head).toMatch(/demo/);
    expect(head).toMatch(/made-up player, not a real account/);
    // Results by colour and time class as a table whose rows add up to the report's own counts.
    const report = (await rest(server.url, `/api/v1/prep/players/siteB/${DEMO_SCOUT.username}`, { token })).body;
    const rows = await page.$$eval('[data-testid="scout-results"] tbody tr', (trs) => trs.map((tr) => [...tr.querySelectorAll('td')].map((td) => td.textContent)));
    expect(rows[0].slice(0, 3)).toEqual(['As White', String(report.byColour.white.games), `${report.byColour.white.win}\u2060–\u2060${report.byColour.white.draw}\u2060–\u2060${report.byColour.white.loss}`]);
    expect(rows.length).toBe(2 + report.timeClasses.length);
    // Recent form: one mark per game of the last ten, in the report's order.
    expect(await page.$$eval('.form-marks .mark-result', (m) => m.map((x) => x.textContent).join(''))).toBe(report.recentForm.results.replace(/[^WDL]/g, ''));
    // A weak line opens the tree on the board at that line.
    const worst = report.worstLines.white[0] ?? report.worstLines.black[0];
    await page.click('[data-testid="scout-worst"] [data-testid="open-line"]');
    await page.waitForFunction((n) => document.querySelectorAll('[data-testid="scout-line"] button').length === n + 1, {}, worst.lineMoves.split(' ').length);
    expect(await page.$eval('[data-testid="scout-tree"] [data-testid="board"]', (b) => b.getAttribute('aria-label'))).toBe(`position after ${worst.lineMoves}`);
    // The repertoire: its lines as move pairs, the board at the end of the first; the games that left it.
    const rep = (await rest(server.url, '/api/v1/prep/repertoire/white', { token })).body;
    expect(rep.source).toBe('demo');
    expect(await page.$$eval('[data-testid="repertoire-line"]', (l) => l.length)).toBe(rep.lines);
    expect(await page.$eval('[data-testid="repertoire-line"]', (l) => l.textContent)).toBe('1. e4 e5 2. Nf3 Nc6 3. Bc4 Bc5 4. c3 Nf6 5. d4 exd4 6. cxd4 Bb4+ 7. Bd2');
    expect(await page.$eval('.rep-board [data-testid="board"]', (b) => b.getAttribute('data-fen'))).toBe('r1bqk2r/pppp1ppp/2n2n2/8/1bBPP3/5N2/PP1B1PPP/RN1QK2R b KQkq - 2 7');
    const left = (await rest(server.url, '/api/v1/prep/repertoire/white/deviations', { token })).body;
    const shownLeft = await page.$$eval('[data-testid="repertoire-left"] tbody tr', (r) => r.length);
    expect(shownLeft).toBe(Math.min(15, left.rows.filter((r: { status: string }) => r.status === 'deviation').length));
  });

  test('a repertoire is edited as lines and shown again from what was saved', async () => {
    await page.goto(`${server.url}/prep`);
    await page.waitForSelector('[data-testid="repertoire-line"]');
    await page.click('[data-testid="repertoire-black"]');
    await page.waitForFunction(() => document.querySelector('[data-testid="repertoire-black"]')?.classList.contains('active') && document.querySelector('[data-testid="repertoire-line"]'));
    await page.$eval('details.editor', (d) => ((d as HTMLDetailsElement).open = true));
    await page.$eval('[data-testid="repertoire-text"]', (t) => ((t as HTMLTextAreaElement).value = '1. e4 c5 2. Nf3 d6\n1. d4 Nf6 2. c4 g6'));
    await page.click('[data-testid="repertoire-save"]');
    await page.waitForFunction(() => document.querySelectorAll('[data-testid="repertoire-line"]').length === 2);
    expect(await page.$$eval('[data-testid="repertoire-line"]', (l) => l.map((x) => x.textContent))).toEqual(['1. e4 c5 2. Nf3 d6', '1. d4 Nf6 2. c4 g6']);
    const saved = (await rest(server.url, '/api/v1/prep/repertoire/black', { token })).body;
    expect(saved).toMatchObject({ source: 'lines', lines: 2 });
    expect(await page.$eval('[data-testid="repertoire"]', (e) => e.textContent)).not.toMatch(/demo/);
  });

  test('a scout in progress shows its progress; a failed scout shows one clear error and no report', async () => {
    await page.goto(`${server.url}/prep`);
    await page.waitForSelector('[data-testid="scout-results"]');
    await page.type('[data-testid="scout-username"]', 'slowpoke');
    await page.click('[data-testid="scout-submit"]');
    await page.waitForSelector('[data-testid="scout-progress"]');
    expect(await page.$eval('[data-testid="scout-progress"] h2', (e) => e.textContent)).toBe('Scouting slowpoke on lichess');
    expect(await page.$$('[data-testid="scout-progress"] progress')).toHaveLength(1);
    await page.waitForSelector('[data-testid="scout-error"]');
    await page.$eval('[data-testid="scout-username"]', (i) => ((i as HTMLInputElement).value = ''));
    await page.type('[data-testid="scout-username"]', 'nobody-here');
    await page.click('[data-testid="scout-submit"]');
    await page.waitForFunction(() => document.querySelector('[data-testid="scout-error"]')?.textContent?.includes('nobody-here'));
    expect(await page.$$eval('[role="alert"]', (a) => a.length)).toBe(1);
    expect(await page.$eval('[data-testid="scout-error"]', (e) => e.textContent)).toMatch(/^Could not scout nobody-here on lichess: /);
    expect(await page.$$('[data-testid="scout-results"], [data-testid="scout-tree"]')).toHaveLength(0);
  });

  test('a study game opens on the board with its notes beside their moves, and its analysis once requested', async () => {
    const view = (await rest(server.url, `/api/v1/settings/study/${studyId}`, { token })).body;
    await page.goto(`${server.url}/study`);
    await page.waitForSelector('[data-testid="study-row"] a');
    await page.click(`[data-testid="study-row"][data-id="${studyId}"] a`);
    await page.waitForSelector('[data-testid="move-list"]');
    expect(await page.$$eval('[data-testid="move-list"] .move', (m) => m.length)).toBe(view.game.plyCount);
    // Each note sits right after the move pair holding its ply, and says the owner's words.
    const notes = await page.$$eval('[data-testid="move-note"]', (n) => n.map((x) => ({ ply: Number(x.getAttribute('data-ply')), text: x.textContent, after: x.previousElementSibling?.querySelector(`.move[data-ply="${x.getAttribute('data-ply')}"]`) !== null || x.getAttribute('data-ply') === '0' || x.previousElementSibling?.classList.contains('note') })));
    expect(notes.map((n) => [n.ply, n.text])).toEqual(view.notes.map((n: { ply: number; text: string }) => [n.ply, n.text]));
    expect(notes.every((n) => n.after)).toBe(true);
    const noted = view.notes.find((n: { ply: number }) => n.ply > 0);
    await page.click(`[data-testid="move-list"] .move[data-ply="${noted.ply}"]`);
    expect(await page.$eval('[data-testid="ply-info"]', (e) => e.textContent)).toContain(noted.text);
    // Request the analysis; the engine runs the queue until this game's review is done.
    await page.click('[data-testid="study-review"]');
    await page.waitForFunction(() => /queued|being reviewed/.test(document.querySelector('[data-testid="review-status"]')?.textContent ?? ''));
    for (let i = 0; i < 12; i++) {
      const status = ((await rest(server.url, '/api/v1/me/study', { token })).body as { games: Array<{ id: string; review: { status: string } }> }).games.find((g) => g.id === studyId)!.review.status;
      if (status === 'complete') break;
      await app.deps.runtime.reviews.runOnce();
    }
    await page.reload();
    await page.waitForSelector('[data-testid="eval-graph"]').catch(async (err) => {
      throw new Error(`${err}; the page says: ${await page.$eval('body', (m) => m.textContent?.slice(0, 300))} ${JSON.stringify((await rest(server.url, '/api/v1/me', { token })).status)}`);
    });
    const analysed = (await rest(server.url, `/api/v1/settings/study/${studyId}`, { token })).body;
    expect(await page.$$eval('[data-testid="eval-graph"] .eval-hit', (r) => r.length)).toBe(analysed.plies.length);
    expect(analysed.plies.length).toBe(view.game.plyCount);
  });

  test('Overview counts the reviewed games the Games list shows, and Sync now skips the demo connections without an error', async () => {
    const reviewed = ((await rest(server.url, '/api/v1/me/games?reviewed=yes', { token })).body as { total: number }).total;
    await page.goto(`${server.url}/`);
    await page.waitForSelector('[data-testid="review-queue"]');
    expect(await page.$eval('[data-testid="review-queue"] p', (p) => p.textContent)).toMatch(new RegExp(`^${reviewed} games reviewed`));
    await page.click('[data-testid="sync-now"]');
    await page.waitForSelector('[data-testid="sync-status"][data-state="done"]');
    const status = await page.$eval('[data-testid="sync-status"]', (e) => ({ text: e.textContent, error: e.classList.contains('error'), colour: getComputedStyle(e).color }));
    expect(status.text).toBe('skipped 3 demo connections (chess.com, lichess, ECF): made-up accounts, never synced; connect your own in Settings');
    expect(status.error).toBe(false);
    expect(sources.requests.filter((r) => !r.path.startsWith('/api/games/user/'))).toEqual([]);
  });

  test('the ECF calculator answers with a result card', async () => {
    await page.goto(`${server.url}/tournaments`);
    await page.waitForSelector('input[name="currentRating"]');
    await page.type('input[name="currentRating"]', '1800');
    await page.type('input[name="games"]', '1850 w, 2010 d, 1700 loss');
    await page.type('input[name="age"]', '16');
    await page.click('[data-testid="ecf-calculate"]');
    await page.waitForSelector('[data-testid="ecf-card"]');
    const api = (await rest(server.url, '/api/v1/fed/rating-change?currentRating=1800&games=1850%20w,%202010%20d,%201700%20loss&age=16')).body;
    const card = await page.$eval('[data-testid="ecf-card"]', (e) => ({ big: e.querySelector('.big')!.textContent, caveats: [...e.querySelectorAll('.caveats li')].map((l) => l.textContent) }));
    expect(card.big).toBe(`${api.newRating} (${api.change >= 0 ? '+' : '−'}${Math.round(Math.abs(api.change) * 10) / 10})`);
    expect(card.caveats).toHaveLength(api.caveats.length);
    expect(card.caveats.every((c) => /[.!?]$/.test(c!))).toBe(true);
  });

  test('every page at 360, 390, 1024, 1280 and 1920 px: nothing past its card, no programmer text, every tab in view', async () => {
    const pages: Array<[string, string, string]> = [
      ['/', 'overview', '[data-testid="rating-chart"]'],
      ['/games', 'games', '[data-testid="games-row"]'],
      [`/games/${gameId}`, 'game', '[data-testid="eval-graph"]'],
      ['/openings', 'openings', '[data-testid="tree-move"]'],
      ['/insights', 'insights', '[data-testid="weakness"]'],
      ['/study', 'study', '[data-testid="study-row"]'],
      [`/study/${studyId}`, 'study-game', '[data-testid="eval-graph"]'],
      ['/coaching', 'coaching', '[data-testid="board"]'],
      ['/library', 'library', 'main table'],
      ['/library/morphy-brunswick-isouard-1858', 'library-game', '[data-testid="move-list"]'],
      ['/tournaments', 'tournaments', 'main form'],
      [`/prep?player=siteB/${DEMO_SCOUT.username}`, 'prep', '[data-testid="repertoire-line"]'],
      ['/settings', 'settings', '[data-testid="token-name"]'],
    ];
    const found: Finding[] = [];
    for (const width of WIDTHS) {
      await page.setViewport({ width, height: width < 500 ? 844 : 900, isMobile: width < 500, hasTouch: width < 500, deviceScaleFactor: 1 });
      for (const [path, name, ready] of pages) {
        await page.goto(`${server.url}${path}`);
        await page.waitForSelector(ready).catch(async (err) => {
          throw new Error(`${name} at ${width}: ${err}; the page says: ${await page.$eval('main', (m) => m.textContent?.slice(0, 300))}`);
        });
        if (name === 'prep') await page.waitForSelector('[data-testid="tree-move"]');
        if (name === 'tournaments') {
          // The calculator's card is part of the page a player sees.
          await page.type('input[name="currentRating"]', '1800');
          await page.type('input[name="games"]', '1850 w, 2010 d, 1700 loss');
          await page.click('[data-testid="ecf-calculate"]');
          await page.waitForSelector('[data-testid="ecf-card"]');
        }
        const { overflow, text, tabs } = await page.evaluate(inspect);
        for (const o of overflow) found.push({ page: name, width, what: `overflow: ${o}` });
        for (const t of text) {
          if (CAMEL.test(t)) found.push({ page: name, width, what: `camelCase: "${t.slice(0, 80)}"` });
          if (LONG_FLOAT.test(t)) found.push({ page: name, width, what: `float: "${t.slice(0, 80)}"` });
          if (BARE_BOOLEAN.test(t)) found.push({ page: name, width, what: `boolean: "${t.slice(0, 80)}"` });
        }
        for (const t of tabs) found.push({ page: name, width, what: `tab cut off: ${t}` });
        if (SHOT_WIDTHS.has(width)) await page.screenshot({ path: join(SHOTS, `${name}-${width}.png`) as `${string}.png`, fullPage: true });
      }
    }
    expect(found).toEqual([]);
    expect(errors).toEqual([]);
  }, 600_000);
});

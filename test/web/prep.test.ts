/// <reference lib="dom" />
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Browser, Page } from 'puppeteer-core';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { buildDashboard } from '../../web/build.js';
import { signInLink } from '../../src/cli/signInLink.js';
import type { Listening } from '../../src/http/listen.js';
import { makeTestApp, type TestApp } from '../helpers/app.js';
import { startFixtureServer, type FixtureServer } from '../helpers/fixtureServer.js';
import { startServer } from '../helpers/server.js';
import { scoutRuns } from '../../src/services/prep/index.js';
import { ensureScout } from '../../src/services/prep/scoutStore.js';
import { findChromium, launchChromium } from './browser.js';

// The Prep page (issue 29) in Debian's Chromium: scout a fixture lichess player, walk their tree;
// another owner's page shows nothing of it.

const chromium = findChromium();
const served = readFileSync(join(import.meta.dirname, '../fixtures/prep/rivalx.ndjson'), 'utf8').split('\n').filter((l) => l.trim());

describe.skipIf(!chromium)('the Prep page in Chromium', { timeout: 60_000 }, () => {
  let app: TestApp;
  let source: FixtureServer;
  let server: Listening;
  let browser: Browser;
  let closeBrowser: () => Promise<void>;
  const errors: string[] = [];

  beforeAll(async () => {
    await buildDashboard();
    source = await startFixtureServer();
    source.route('prefix:/api/games/user/', (_req, res) => {
      res.writeHead(200, { 'content-type': 'application/x-ndjson' });
      for (const l of served) res.write(l + '\n');
      res.end();
    });
    app = makeTestApp({ env: { CFP_LICHESS_URL: source.url, CFP_CHESSCOM_URL: source.url } });
    server = await startServer(app);
    ({ browser, close: closeBrowser } = await launchChromium(chromium!));
  });
  afterAll(async () => {
    await closeBrowser?.();
    await server?.close();
    await source?.close();
    await app?.close();
  });

  async function signedIn(userId: string): Promise<Page> {
    const page = await (await browser.createBrowserContext()).newPage();
    page.setDefaultTimeout(15_000);
    page.on('pageerror', (e) => errors.push(String(e)));
    await page.goto(signInLink(app.deps, server.url, userId));
    await page.waitForSelector('main');
    await page.goto(`${server.url}/prep`);
    return page;
  }

  test('scout a player and walk their tree; another owner sees none of it', async () => {
    const alice = app.addUser('Alice');
    const bob = app.addUser('Bob');
    const page = await signedIn(alice.user.id);
    await page.waitForSelector('[data-testid="no-scouts"]');
    await page.type('[data-testid="scout-username"]', 'RivalX');
    await page.click('[data-testid="scout-submit"]');
    await page.waitForSelector('[data-testid="tree-move"]');
    // As White: e4 in 3 of 4 games (75%), d4 in 1 (25%).
    const rows = () => page.$$eval('[data-testid="scout-tree"] tbody tr', (trs) => trs.map((tr) => [...tr.querySelectorAll('td')].map((td) => td.textContent)));
    // Columns: their move, games, share, W–D–L (kept on one line by word joiners), their score.
    const wdl = (w: number, d: number, l: number) => `${w}\u2060–\u2060${d}\u2060–\u2060${l}`;
    expect(await rows()).toEqual([
      ['1.e4', '3', '75%', wdl(1, 1, 1), '50%'],
      ['1.d4', '1', '25%', wdl(1, 0, 0), '100%'],
    ]);
    await page.click('[data-testid="tree-move"]');
    await page.waitForFunction(() => document.querySelector('[data-testid="scout-line"]')?.textContent?.includes('1.e4'));
    expect((await rows()).map((r) => [r[0], r[2]])).toEqual([
      ['1…c5', '66.7%'],
      ['1…e5', '33.3%'],
    ]);

    const other = await signedIn(bob.user.id);
    await other.waitForSelector('[data-testid="no-scouts"]');
    expect(await other.$eval('main', (m) => m.textContent)).not.toMatch(/rivalx/i);
    expect(errors).toEqual([]);
  });

  test('the page opens on a scouted player with games, not on one whose fetch never ran (issue 44 item 7)', async () => {
    const carol = app.addUser('Carol');
    scoutRuns(app.deps).start(carol.user.id, 'siteB', 'RivalX');
    await scoutRuns(app.deps).settled(carol.user.id, 'siteB', 'rivalx');
    // A scout left never fetched (its process went away), listed first (by site, then name).
    ensureScout(app.deps.store, app.deps.clock, carol.user.id, 'siteB', 'aaa-ghost', { maxGames: 500, months: 12 });
    const page = await signedIn(carol.user.id);
    await page.waitForSelector('[data-testid="tree-move"]');
    expect(new URL(page.url()).searchParams.get('player')).toBe('siteB/rivalx');
    expect(await page.$$eval('[data-testid="scout-open"]', (bs) => bs.map((b) => b.textContent))).toEqual(['aaa-ghost (lichess)', 'rivalx (lichess)']);
    expect(errors).toEqual([]);
  });
});

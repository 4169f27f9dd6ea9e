/// <reference lib="dom" />
import { createServer, type Server } from 'node:http';
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { Chess } from 'chess.js';
import { build } from 'esbuild';
import type { Browser, ElementHandle, Frame, Page } from 'puppeteer-core';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { seedDemo } from '../../src/demo/index.js';
import type { Listening } from '../../src/http/listen.js';
import { buildChatBoard } from '../../web/app/build.js';
import { makeTestApp, type TestApp } from '../helpers/app.js';
import { mcpClient, startServer } from '../helpers/server.js';
import { findChromium, launchChromium, screenshotDir } from './browser.js';
import type { ShowRequest } from './chatHost.js';

// The chat board in Debian's Chromium, rendered by a host built on ext-apps' AppBridge (test/web/chatHost.ts) for
// real answers of the real server (the demo store over streamable HTTP), the app's own tools/call passed back to it.
// Every expected position is worked out here from the answer's own data (a moment's fen, an analysis ply's fenAfter)
// or by replaying the game's moves with chess.js, never from the app's code.

const chromium = findChromium();
const inCi = Boolean(process.env.CI) && !['false', '0'].includes(process.env.CI!);
if (!chromium && inCi) throw new Error('CI=true but no Chromium at /usr/bin/chromium: .ci/run installs it with apt-get');
if (!chromium) console.warn('chat board browser tests skipped: no Chromium found (install Debian’s `chromium` or set CFP_CHROMIUM)');

const URI = 'ui://chess-footprint/board';
const SHOTS = screenshotDir('chat');

/** The position after `plies` moves of a SAN list, by chess.js. */
function fenAfter(moves: readonly string[], plies: number): string {
  const chess = new Chess();
  for (const san of moves.slice(0, plies)) chess.move(san);
  return chess.fen();
}

interface Context {
  content?: Array<{ type: string; text?: string }>;
  structuredContent?: { fen: string; ply: number; totalPlies: number | null; moment: { engineChoice: string | null } | null; lastMove: { move: string } | null; nextMove: { move: string } | null };
}

describe.skipIf(!chromium)('the chat board in Chromium, through ext-apps’ AppBridge', { timeout: 90_000 }, () => {
  let app: TestApp;
  let server: Listening;
  let hostServer: Server;
  let hostUrl: string;
  let client: Client;
  let browser: Browser;
  let closeBrowser: () => Promise<void>;
  let page: Page;
  let html: string;
  let gameId: string;
  let moves: string[];
  const errors: string[] = [];
  const calls: string[] = [];

  beforeAll(async () => {
    mkdirSync(SHOTS, { recursive: true });
    await buildChatBoard();
    // The host side, bundled the way a host bundles ext-apps' app-bridge.
    const bundle = await build({ entryPoints: [join(import.meta.dirname, 'chatHost.ts')], bundle: true, write: false, format: 'esm', target: 'es2022', logLevel: 'warning' });
    const hostJs = bundle.outputFiles[0].text;
    hostServer = createServer((req, res) => {
      if (req.url === '/host.js') return void res.writeHead(200, { 'content-type': 'text/javascript' }).end(hostJs);
      res.writeHead(200, { 'content-type': 'text/html' }).end('<!doctype html><html><head><meta charset="utf-8"><script type="module" src="/host.js"></script></head><body></body></html>');
    });
    await new Promise<void>((r) => hostServer.listen(0, '127.0.0.1', r));
    hostUrl = `http://127.0.0.1:${(hostServer.address() as { port: number }).port}/`;

    app = makeTestApp({ now: '2026-11-21T12:00:00Z' });
    // The demo as `npm start` makes it (seed 1, 500 games): its shipped engine reviews apply at once.
    const { token } = await seedDemo(app.deps, { games: 500, seed: 1, log: () => {} });
    server = await startServer(app);
    client = await mcpClient(server.url, token);
    html = ((await client.readResource({ uri: URI })).contents[0] as { text: string }).text;
    const list = (await client.callTool({ name: 'list_games', arguments: { reviewed: 'yes' } })).structuredContent as { games: Array<{ id: string }> };
    gameId = list.games[0].id;
    moves = ((await client.callTool({ name: 'get_game', arguments: { id: gameId } })).structuredContent as { moves: string[] }).moves;

    ({ browser, close: closeBrowser } = await launchChromium(chromium!));
    page = await browser.newPage();
    page.setDefaultTimeout(20_000);
    page.on('pageerror', (e) => errors.push(String(e)));
    // Errors in the app's frame (a CSP refusal among them) reach the page's console too.
    page.on('console', (m) => {
      if (m.type() === 'error' || /Content Security Policy/i.test(m.text())) errors.push(m.text());
    });
    await page.exposeFunction('cfpCallTool', async (params: { name: string; arguments?: Record<string, unknown> }) => {
      calls.push(params.name);
      return client.callTool(params);
    });
  }, 240_000);

  afterAll(async () => {
    await closeBrowser?.();
    await client?.close();
    await server?.close();
    await new Promise((r) => hostServer?.close(r));
    await app?.close();
  });

  /** Renders the board for an answer the test got from the server, and returns the app's frame. */
  async function show(tool: string, args: Record<string, unknown>, result: CallToolResult, width: number, theme: 'light' | 'dark' = 'light'): Promise<Frame> {
    await page.setViewport({ width: width + 40, height: 1000 });
    await page.goto(hostUrl);
    await page.waitForFunction(() => typeof window.cfpShow === 'function');
    const req: ShowRequest = { html, tool, args, result, width, theme };
    await page.evaluate((r) => window.cfpShow(r), req);
    const handle = (await page.waitForSelector('iframe[data-testid="app-frame"]')) as ElementHandle<HTMLIFrameElement>;
    const frame = (await handle.contentFrame())!;
    // The whole game is on the board once its move list is there (fetched through the host when the answer lacks it).
    await frame.waitForSelector('[data-testid="move-list"]');
    // …and the model has heard of it: an update from the whole game's board (it knows the game's length).
    await page.waitForFunction(() => window.cfpContexts.some((c) => typeof (c.structuredContent as { totalPlies?: unknown } | undefined)?.totalPlies === 'number'));
    return frame;
  }

  const contexts = () => page.evaluate(() => window.cfpContexts as unknown[]) as Promise<Context[]>;
  /** Waits until the model's latest word is the position with this FEN (the host keeps only the last), and returns it. */
  async function toldFen(fen: string): Promise<Context> {
    await page.waitForFunction((f) => (window.cfpContexts.at(-1)?.structuredContent as { fen?: string } | undefined)?.fen === f, {}, fen);
    return (await contexts()).at(-1)!;
  }

  /** Nothing wider than the frame. */
  async function noSpill(frame: Frame): Promise<void> {
    const sizes = await frame.evaluate(() => ({ scroll: document.documentElement.scrollWidth, client: document.documentElement.clientWidth, body: document.body.scrollWidth }));
    expect(sizes.scroll).toBeLessThanOrEqual(sizes.client);
    expect(sizes.body).toBeLessThanOrEqual(sizes.client);
  }

  async function shot(name: string): Promise<void> {
    const el = (await page.$('iframe[data-testid="app-frame"]'))!;
    await el.screenshot({ path: join(SHOTS, `${name}.png`) as `${string}.png` });
  }

  /** Focus into the frame (a click on the board, which changes nothing), then a key, as a player presses it. */
  async function press(frame: Frame, key: 'ArrowRight' | 'ArrowLeft' | 'Home' | 'End'): Promise<void> {
    await frame.click('[data-testid="board"]');
    await page.keyboard.press(key);
  }

  test('get_critical_moments: opens on the first moment, its move drawn and the engine’s choice hidden until asked; → and a click move on', async () => {
    const args = { id: gameId };
    const result = (await client.callTool({ name: 'get_critical_moments', arguments: args })) as CallToolResult;
    const moment = (result.structuredContent as { moments: Array<any> }).moments[0];
    expect(moment).toBeDefined();
    calls.length = 0;
    const frame = await show('get_critical_moments', args, result, 700);
    // The answer's own position: the one before the moment's move, as the moment states it and as chess.js replays it.
    expect(moment.fen).toBe(fenAfter(moves, moment.ply - 1));
    const first = await toldFen(moment.fen);
    // The move played from it, numbered from the moment's own fields ("18…f6"), with lichess's judgment.
    const label = `${moment.moveNumber}${moment.sideToMove === 'white' ? '.' : '…'}${moment.playedMove.san}`;
    expect(first.structuredContent!.nextMove!.move).toBe(label);
    const text = first.content![0].text!;
    expect(text).toContain(`FEN ${moment.fen}`);
    expect(text).toContain(label);
    if (moment.judgment) expect(text).toContain(`lichess's judgment: ${moment.judgment}`);
    // The rest of the game came through the host: the app's own tools/call, answered by the server.
    expect(calls).toContain('get_game');
    expect(calls).toContain('get_game_analysis');
    // The move played is drawn; the engine's choice is not, and the model is told it is hidden.
    expect(await frame.$eval('[data-testid="arrow-played"]', (e) => e.getAttribute('data-uci'))).toBe(moment.playedMove.uci.slice(0, 4));
    expect(await frame.$('[data-testid="arrow-best"]')).toBeNull();
    expect(first.structuredContent!.moment!.engineChoice).toBeNull();
    await noSpill(frame);
    await shot('critical-moment-700');
    if (moment.bestMove && moment.bestMove.uci !== moment.playedMove.uci) {
      await frame.click('[data-testid="reveal"]');
      await frame.waitForSelector('[data-testid="arrow-best"]');
      expect(await frame.$eval('[data-testid="arrow-best"]', (e) => e.getAttribute('data-uci'))).toBe(moment.bestMove.uci.slice(0, 4));
      await page.waitForFunction(() => window.cfpContexts.some((c) => (c.structuredContent as any)?.moment?.engineChoice));
      await shot('critical-moment-revealed-700');
    }

    await press(frame, 'ArrowRight');
    const after = await toldFen(fenAfter(moves, moment.ply));
    expect(after.structuredContent!.ply).toBe(moment.ply);
    expect(after.structuredContent!.lastMove!.move).toBe(label);
    const later = Math.min(moment.ply + 4, moves.length);
    await frame.click(`.move[data-ply="${later}"]`);
    expect((await toldFen(fenAfter(moves, later))).structuredContent!.ply).toBe(later);
    expect(errors).toEqual([]);
  });

  test('get_game_analysis: opens on its fromPly; → and a click on the evaluation graph move on; 360 px does not spill', async () => {
    const args = { id: gameId, fromPly: 9, limit: 6 };
    const result = (await client.callTool({ name: 'get_game_analysis', arguments: args })) as CallToolResult;
    const plies = (result.structuredContent as { plies: Array<{ ply: number; fenAfter: string; playedMove: { san: string } }> }).plies;
    expect(plies[0].ply).toBe(9);
    const frame = await show('get_game_analysis', args, result, 360);
    expect(plies[0].fenAfter).toBe(fenAfter(moves, 9));
    const told = await toldFen(plies[0].fenAfter);
    // Ply 9 is White's fifth move: "5.<san>".
    expect(told.structuredContent!.lastMove!.move).toBe(`5.${plies[0].playedMove.san}`);
    await noSpill(frame);
    await shot('analysis-360');
    await press(frame, 'ArrowRight');
    await toldFen(fenAfter(moves, 10));
    // A click on the graph's column of ply 20.
    await frame.click('[data-testid="eval-graph"] .eval-hit[data-ply="20"]');
    expect((await toldFen(fenAfter(moves, 20))).structuredContent!.ply).toBe(20);
    expect(errors).toEqual([]);
  });

  test('get_game: opens on the final position, facing the owner; Home, → and a click on a move; dark as the host says', async () => {
    const args = { id: gameId };
    const result = (await client.callTool({ name: 'get_game', arguments: args })) as CallToolResult;
    const game = result.structuredContent as { moves: string[]; colour: string };
    const frame = await show('get_game', args, result, 700, 'dark');
    await toldFen(fenAfter(game.moves, game.moves.length));
    expect(await frame.evaluate(() => document.documentElement.getAttribute('data-theme'))).toBe('dark');
    // The board faces the owner: from Black's side the a-file's label is the last one drawn along the bottom.
    const files = await frame.$$eval('[data-testid="board"] text.coord', (ts) => ts.map((t) => t.textContent).filter((t) => /[a-h]/.test(t ?? '')));
    expect(files[0]).toBe(game.colour === 'black' ? 'h' : 'a');
    await noSpill(frame);
    await shot('game-dark-700');
    await press(frame, 'Home');
    await toldFen(new Chess().fen());
    await press(frame, 'ArrowRight');
    await toldFen(fenAfter(game.moves, 1));
    await frame.click('.move[data-ply="6"]');
    await toldFen(fenAfter(game.moves, 6));
    expect(errors).toEqual([]);
  });

  test('get_library_game: opens before the essay’s key move, 10.g4 in the Immortal Game, with nothing fetched', async () => {
    const args = { slug: 'anderssen-kieseritzky-1851' };
    const result = (await client.callTool({ name: 'get_library_game', arguments: args })) as CallToolResult;
    const pgn = (result.structuredContent as { pgn: string }).pgn;
    const chess = new Chess();
    chess.loadPgn(pgn);
    const sans = chess.history();
    // The essay's "Turning points": its first paragraph tells the opening, the second opens "With 10.g4 and 11.Rg1":
    // White's tenth move, ply 19. The board shows the position before it, the move drawn.
    expect(sans[18]).toBe('g4');
    calls.length = 0;
    for (const width of [360, 700]) {
      const frame = await show('get_library_game', args, result, width);
      await toldFen(fenAfter(sans, 18));
      expect(await frame.$eval('[data-testid="arrow-played"]', (e) => e.getAttribute('data-uci'))).toBe('g2g4');
      await noSpill(frame);
      await shot(`library-${width}`);
    }
    expect(calls).toEqual([]);
    const frame = await show('get_library_game', args, result, 700);
    await press(frame, 'ArrowRight');
    await toldFen(fenAfter(sans, 19));
    await frame.click('.move[data-ply="45"]');
    const last = await toldFen(fenAfter(sans, 45));
    expect(last.structuredContent!.lastMove!.move).toBe('23.Be7#');
    expect(errors).toEqual([]);
  });

  test('the app tells the host its height, and every name from a source is text, never markup', async () => {
    const sizes = await page.evaluate(() => window.cfpSizes);
    expect(sizes.length).toBeGreaterThan(0);
    expect(Math.max(...sizes)).toBeGreaterThan(300);
    // A hostile name in an answer (as a PGN tag could carry it) renders as text.
    const hostile = '<img src=x onerror=alert(1)>';
    const result = (await client.callTool({ name: 'get_library_game', arguments: { slug: 'anderssen-kieseritzky-1851' } })) as CallToolResult;
    const tampered = { ...result, structuredContent: { ...(result.structuredContent as object), white: hostile } };
    const frame = await show('get_library_game', { slug: 'anderssen-kieseritzky-1851' }, tampered, 360);
    expect(await frame.$eval('h1', (e) => e.textContent)).toContain(hostile);
    expect(await frame.$('h1 img')).toBeNull();
    expect(errors).toEqual([]);
  });
});

import { readFileSync } from 'node:fs';
import { afterEach, beforeEach, describe, expect, test } from 'vitest';
import { PeerRuns, setPeerRuns } from '../../src/services/peers/index.js';
import { connectSource } from '../../src/services/sync/connections.js';
import { prepareForOpponent, reviewOpenings, type PromptPart } from '../../tools/prompts.js';
import { callCtx, type PersonalCtx } from '../../src/context.js';
import { seedDemo } from '../../src/demo/index.js';
import { DEMO_SCOUT } from '../../src/demo/prep.js';
import { repertoireDeviations } from '../../src/services/prep/index.js';
import { makeTestApp, type TestApp } from '../helpers/app.js';
import { fixturePath } from '../helpers/fixtures.js';
import { startFixtureServer, type FixtureServer } from '../helpers/fixtureServer.js';
import { addGames, gameRow } from '../helpers/games.js';

/**
 * Issue 43: the preparation prompts carry their data (tools/prepPrompts.ts). review_openings carries the peers' figures and the owner's tree itself. A local opening explorer
 * answers lichess's own example for 1.d4 d5 2.c4 c6 3.cxd5 (test/fixtures/explorer/SOURCE.md) and no games elsewhere.
 */
describe('the review_openings prompt', () => {
  let app: TestApp;
  let explorer: FixtureServer;
  let runs: PeerRuns;

  beforeEach(async () => {
    explorer = await startFixtureServer();
    const slav = readFileSync(fixturePath('explorer', 'lichess.example.json'), 'utf8');
    const none = JSON.stringify({ white: 0, draws: 0, black: 0, moves: [], topGames: [], recentGames: [], opening: null });
    explorer.route('/lichess', (_req, res, url) => {
      const atSlav = (url.searchParams.get('fen') ?? '').startsWith('rnbqkbnr/pp2pppp/2p5/3P4/3P4/8/PP2PPPP/RNBQKBNR b KQkq');
      res.writeHead(200, { 'content-type': 'application/json' }).end(atSlav ? slav : none);
    });
    app = makeTestApp({ env: { CFP_LICHESS_EXPLORER_URL: explorer.url, CFP_LICHESS_URL: explorer.url } });
    runs = new PeerRuns(app.deps, { sleep: async () => undefined });
    setPeerRuns(app.deps, runs);
  });
  afterEach(async () => {
    runs.stop();
    await explorer.close();
    await app.close();
  });

  test('first pick: the fetch starts and the prompt says to pick it again; then it carries the findings, the peers and the tree', async () => {
    const { ctx, user } = app.addUser();
    connectSource(app.deps, user.id, 'siteB', 'owner', 'lip_owner');
    // As black, lichess blitz 1650 (rating group 1600): after 1.d4 d5 2.c4 c6 3.cxd5, 3...cxd5 five times
    // (W W D L L), 3...Qxd5 three times (L L D), 3...c5 three times (L W L).
    const played: Array<[string, 'win' | 'draw' | 'loss']> = [
      ['cxd5', 'win'], ['cxd5', 'win'], ['cxd5', 'draw'], ['cxd5', 'loss'], ['cxd5', 'loss'],
      ['Qxd5', 'loss'], ['Qxd5', 'loss'], ['Qxd5', 'draw'],
      ['c5', 'loss'], ['c5', 'win'], ['c5', 'loss'],
    ];
    addGames(app.deps.store, app.clock, played.map(([move, result], i) => gameRow(user.id, {
      sourceId: `slav${i}`, colour: 'black', result, playedAt: `2026-10-${10 + i}T12:00:00.000Z`, userRating: 1640, ratingDelta: i === 10 ? 10 : 3, sanMoves: `d4 d5 c4 c6 cxd5 ${move}`, movesSource: 'pgn',
    })));
    const parts = async () => (await reviewOpenings.render({ colour: 'black' }, ctx)) as PromptPart[];
    const uris = (ps: PromptPart[]) => ps.flatMap((p) => (p.type === 'resource' ? [p.resource.uri] : []));
    const json = (ps: PromptPart[], uri: string) => JSON.parse((ps.find((p) => p.type === 'resource' && p.resource.uri === uri) as { resource: { text: string } }).resource.text);

    const first = await parts();
    const firstText = (first[0] as { text: string }).text;
    expect(json(first, 'chess-footprint://openings/black/peers').status).toMatchObject({ state: 'queued', positions: 3 });
    expect(firstText).toContain("As black: the peers' figures are being fetched from lichess's opening explorer now (queued, 0 of 3 positions");
    expect(firstText).toContain('pick this prompt again in a minute');
    expect(firstText).toContain('Stop there: there are no findings to go over yet.');

    await runs.settled(`${user.id} black 1600 blitz `);
    const then = await parts();
    const text = (then[0] as { text: string }).text;
    // The findings worked by hand in test/services/peers/peers.test.ts: 3...c5 (scores worse, rare), 3...Qxd5 (scores worse).
    expect(json(then, 'chess-footprint://openings/black/peers').findings.map((f: { san: string }) => f.san)).toEqual(['c5', 'Qxd5']);
    // Both findings are in one position: its peers view and the owner's tree there come once each.
    const line = '?moves=d4+d5+c4+c6+cxd5';
    expect(json(then, `chess-footprint://openings/black/peers${line}`).position).toMatchObject({ games: 11, bestScoring: { san: 'Bg4', score: 49.6 } });
    // The owner's tree, cut: the start, then one move a position to 3.cxd5 (5 plies), then the three replies
    // (each 3+ games, 6 plies; ties by SAN, as the tree orders them): nine positions, nothing with 2+ games left out.
    expect(uris(then).filter((u) => u.startsWith('chess-footprint://openings/black') && !u.includes('/peers'))).toEqual([
      'chess-footprint://openings/black',
      'chess-footprint://openings/black?moves=d4',
      'chess-footprint://openings/black?moves=d4+d5',
      'chess-footprint://openings/black?moves=d4+d5+c4',
      'chess-footprint://openings/black?moves=d4+d5+c4+c6',
      `chess-footprint://openings/black${line}`,
      'chess-footprint://openings/black?moves=d4+d5+c4+c6+cxd5+cxd5',
      'chess-footprint://openings/black?moves=d4+d5+c4+c6+cxd5+c5',
      'chess-footprint://openings/black?moves=d4+d5+c4+c6+cxd5+Qxd5',
    ]);
    expect(new Set(uris(then)).size).toBe(uris(then).length);
    expect(json(then, `chess-footprint://openings/black${line}`).nextMoves.map((m: { san: string; games: number }) => [m.san, m.games])).toEqual([
      ['cxd5', 5],
      ['c5', 3],
      ['Qxd5', 3],
    ]);
    expect(text).toContain('My own black tree (chess-footprint://openings/black) is attached as 9 positions');
    expect(text).toContain('nothing with 2+ games was cut');
    expect(text).toContain('For the first 2 findings (d4 d5 c4 c6 cxd5: c5; d4 d5 c4 c6 cxd5: Qxd5)');
    for (const tool of ['get_problem_lines', 'list_games', 'get_game']) expect(text).toContain(tool);
    expect(text).not.toMatch(/pick this prompt again|Stop there|\bread (the resource|chess-footprint)/i);
  });
});

describe('prepare_for_opponent on the demo store', () => {
  let app: TestApp;
  afterEach(async () => {
    await app.close();
  });

  test('carries the repertoire deviations with their game rows cut to the 10 newest, and stays bounded', async () => {
    app = makeTestApp();
    const { user } = await seedDemo(app.deps, { games: 120 });
    const ctx = callCtx(app.deps, user, { surface: 'mcp', key: 'mcp' }) as PersonalCtx;
    const full = await repertoireDeviations(ctx, 'white');
    expect(full.rows.length).toBeGreaterThan(10);
    const parts = (await prepareForOpponent.render({ provider: DEMO_SCOUT.provider, username: DEMO_SCOUT.username, colour: 'white' }, ctx)) as PromptPart[];
    const text = (parts[0] as { text: string }).text;
    const carried = JSON.parse((parts.find((p) => p.type === 'resource' && p.resource.uri === 'chess-footprint://repertoire/white/deviations') as { resource: { text: string } }).resource.text);
    // The newest ten rows, everything else as the resource gives it.
    expect(carried).toEqual({ ...full, rows: full.rows.slice(0, 10) });
    expect(text).toContain(`(chess-footprint://repertoire/white/deviations; rows cut to the 10 newest of ${full.rows.length}, the rest as the resource gives it)`);
    // The demo player's black tree is cut at 12 positions, and says so.
    expect(parts.filter((p) => p.type === 'resource' && p.resource.uri.includes('/players/siteB/demo-rival/openings/black'))).toHaveLength(12);
    expect(text).toMatch(/Their black tree \(chess-footprint:\/\/players\/siteB\/demo-rival\/openings\/black\) is attached as 12 positions .*; cut there, \d+ more moves? with 2\+ games go on beyond it/);
    // Bounded: the carried text, all parts together, under 40,000 characters (22,608 measured with the demo's default 500 games).
    const chars = parts.reduce((n, p) => n + (p.type === 'text' ? p.text.length : p.resource.text.length), 0);
    expect(chars).toBeLessThan(40_000);
  }, 120_000);
});

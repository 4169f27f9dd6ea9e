import { readFileSync } from 'node:fs';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import type { Listening } from '../../src/http/listen.js';
import { sha256 } from '../../src/chess/pgn.js';
import { prompts } from '../../tools/prompts.js';
import { generateReport } from '../../src/services/reports/reports.js';
import { insertGames } from '../../src/services/games/gameWriter.js';
import { tools } from '../../tools/index.js';
import { makeAnalysis } from '../helpers/analysis.js';
import { makeTestApp, type TestApp } from '../helpers/app.js';
import { gameRow } from '../helpers/games.js';
import { insertReviewedGame } from '../helpers/reviewed.js';
import { mcpClient, startServer } from '../helpers/server.js';
import { startFixtureServer, type FixtureServer } from '../helpers/fixtureServer.js';
import { fixturePath } from '../helpers/fixtures.js';

const TOOL_NAMES = new Set(tools.map((t) => t.name));
/** snake_case identifiers in a text: every one a prompt message names must be a registered tool. */
const snakeNames = (text: string) => [...text.matchAll(/\b[a-z]+(?:_[a-z]+)+\b/g)].map((m) => m[0]);

const PGN = '[Event "Casual"]\n[White "Me"]\n[Black "Them"]\n[Result "1-0"]\n\n1. e4 e5 2. Qh5 Nc6 3. Bc4 Nf6 4. Qxf7# 1-0\n';

describe('MCP prompts and resources over streamable HTTP', () => {
  let app: TestApp;
  let server: Listening;
  let owner: Client;
  let other: Client;
  let anonymous: Client;
  let pgnGameId: string;
  let lichess: FixtureServer;

  beforeAll(async () => {
    // A local lichess for the prompts that scout a player (test/fixtures/prep/rivalx.ndjson, the export's format).
    lichess = await startFixtureServer();
    lichess.route('prefix:/api/games/user/', (_req, res) => {
      res.writeHead(200, { 'content-type': 'application/x-ndjson' }).end(readFileSync(fixturePath('prep', 'rivalx.ndjson'), 'utf8'));
    });
    app = makeTestApp({ now: '2026-11-20T12:00:00Z', env: { CFP_LICHESS_URL: lichess.url } });
    const me = app.addUser('Owner');
    const them = app.addUser('Other');
    insertGames(app.deps.store, app.deps.clock, [
      {
        game: gameRow(me.user.id, {
          sourceId: 'pgn-1',
          sanMoves: 'e4 e5 Qh5 Nc6 Bc4 Nf6 Qxf7#',
          movesSource: 'pgn',
          movesCount: 4,
          pgnHash: sha256(PGN),
          playedAt: '2026-11-10T12:00:00.000Z',
        }),
        pgnText: PGN,
      },
    ]);
    pgnGameId = (app.deps.store.sqlite.prepare("SELECT id FROM games WHERE source_id = 'pgn-1'").get() as { id: string }).id;
    SAMPLE_ARGS.review_game.gameId = pgnGameId;

    // The opening tree after 1. e4 c5 as White (worked by hand in the test below).
    const g1 = makeAnalysis({ sanMoves: ['e4', 'c5', 'Nf3', 'd6'], evals: [20, -30, 25, -40, 35] });
    const g2 = makeAnalysis({ sanMoves: ['e4', 'c5', 'Nf3', 'Nc6'], evals: [20, -30, 25, 20, 30] });
    insertReviewedGame(app.deps.store, me.user, g1, { sanMoves: 'e4 c5 Nf3 d6', result: 'win', platformAccuracy: 80 });
    insertReviewedGame(app.deps.store, me.user, g2, { sanMoves: 'e4 c5 Nf3 Nc6', result: 'draw', platformAccuracy: 70 });
    insertReviewedGame(app.deps.store, me.user, null, { sanMoves: 'e4 c5 Nc3', movesSource: 'pgn', result: 'loss' });
    insertReviewedGame(app.deps.store, me.user, null, { sanMoves: 'e4 c5', movesSource: 'opening-only', result: 'win' });
    insertReviewedGame(app.deps.store, me.user, null, { sanMoves: 'e4 e5 Nf3', movesSource: 'pgn', result: 'win' });
    insertReviewedGame(app.deps.store, me.user, null, { sanMoves: 'e4 c5 Nf3', movesSource: 'pgn', colour: 'black', result: 'win' });
    insertReviewedGame(app.deps.store, them.user, null, { sanMoves: 'e4 c5 Nf3', movesSource: 'pgn', result: 'win' });

    server = await startServer(app);
    owner = await mcpClient(server.url, me.token);
    other = await mcpClient(server.url, them.token);
    anonymous = await mcpClient(server.url);
  });

  afterAll(async () => {
    await Promise.all([owner?.close(), other?.close(), anonymous?.close()]);
    await server?.close();
    await app?.close();
    await lichess?.close();
  });

  test('prompts/list: the seven workflows with typed arguments', async () => {
    const { prompts: listed } = await owner.listPrompts();
    expect(listed.map((p) => p.name)).toEqual(['coaching_session', 'review_game', 'weekly_review', 'prepare_next_round', 'quiz_me', 'prepare_for_opponent', 'review_openings']);
    const args = Object.fromEntries(listed.map((p) => [p.name, (p.arguments ?? []).map((a) => [a.name, a.required])]));
    expect(args).toEqual({
      coaching_session: [['minutes', false]],
      review_game: [['gameId', true]],
      weekly_review: [],
      prepare_next_round: [
        ['tnr', true],
        ['player', true],
        ['opponentProvider', false],
        ['opponentUsername', false],
      ],
      quiz_me: [['count', false]],
      prepare_for_opponent: [
        ['provider', true],
        ['username', true],
        ['colour', false],
      ],
      review_openings: [
        ['colour', false],
        ['band', false],
        ['timeClass', false],
      ],
    });
    for (const p of listed) for (const a of p.arguments ?? []) expect(a.description, `${p.name}.${a.name}`).toBeTruthy();
  });

  const SAMPLE_ARGS: Record<string, Record<string, string>> = {
    coaching_session: { minutes: '30' },
    review_game: { gameId: 'set to an owned game in beforeAll' },
    weekly_review: {},
    prepare_next_round: { tnr: '1234567', player: 'Carlsen' },
    quiz_me: { count: '3' },
    prepare_for_opponent: { provider: 'lichess', username: 'RivalX', colour: 'black' },
    review_openings: { colour: 'white' },
  };
  const TEMPLATES = () => owner.listResourceTemplates().then((r) => r.resourceTemplates.map((t) => t.uriTemplate));
  /** A concrete chess-footprint:// URI a message names, against the listed templates ({x} one segment, {?moves} a query). */
  const matchesTemplate = (uri: string, templates: string[]) =>
    templates.some((t) => {
      const pattern = t
        .split(/(\{\?[a-z]+\}|\{[a-z]+\})/i)
        .map((part) => (part.startsWith('{?') ? '(\\?[^\\s]*)?' : part.startsWith('{') ? '[^/?\\s]+' : part.replace(/[.*+?^$()|[\]\\]/g, '\\$&')))
        .join('');
      return new RegExp(`^${pattern}$`).test(uri);
    });

  /** The prompt, picked again while it says the data it carries is still being fetched. */
  async function pick(name: string, args: Record<string, string>) {
    let res = await owner.getPrompt({ name, arguments: args });
    for (let i = 0; i < 100 && /pick this prompt again in a minute/.test((res.messages[0].content as { text: string }).text); i += 1) {
      await new Promise((r) => setTimeout(r, 50));
      res = await owner.getPrompt({ name, arguments: args });
    }
    return res;
  }

  test.each(prompts.map((p) => p.name))('%s renders with its arguments, names only registered tools in its declared order, and reads no resource itself', async (name) => {
    const res = await pick(name, SAMPLE_ARGS[name]);
    const [first, ...attached] = res.messages;
    const text = (first.content as { type: 'text'; text: string }).text;
    for (const v of Object.values(SAMPLE_ARGS[name])) expect(text).toContain(v);
    const named = snakeNames(text);
    expect(named.filter((n) => !TOOL_NAMES.has(n))).toEqual([]);
    const declared = prompts.find((p) => p.name === name)!.tools;
    // Every declared tool is named, and the first mention of each follows the declared order; a prompt that
    // stops early (review_openings with no rating to place the owner: nothing to review) names none.
    const stops = /Stop there: there are no findings/.test(text);
    expect([...new Set(named)].filter((n) => declared.includes(n))).toEqual(stops ? [] : declared);
    if (name === 'review_openings') expect(stops, text).toBe(true);
    // Every resource it carries is a listed template, and every chess-footprint:// URI in it is one of them.
    const templates = await TEMPLATES();
    const resources = prompts.find((p) => p.name === name)!.resources ?? [];
    expect(resources.filter((r) => !templates.includes(r))).toEqual([]);
    const uris = [...text.matchAll(/chess-footprint:\/\/[^\s,;)]+/g)].map((m) => m[0].replace(/[.:]$/, ''));
    expect(uris.filter((u) => !matchesTemplate(u, templates))).toEqual([]);
    for (const r of resources) expect(text, r).toContain(r.split('{')[0]);
    // Claude Desktop's model reads no resource (issue 43): no prompt tells it to; what it needs is attached.
    expect(text).not.toMatch(/\bread (the resource|chess-footprint|it again)|\bresources\/read/i);
    for (const m of attached) {
      expect(m.role).toBe('user');
      expect(m.content.type).toBe('resource');
      const r = (m.content as { resource: { uri: string; mimeType: string; text: string } }).resource;
      expect(matchesTemplate(r.uri, templates), r.uri).toBe(true);
      expect(r.mimeType).toBe('application/json');
      // The JSON the resource gives at that URI.
      const read = await owner.readResource({ uri: r.uri });
      expect(JSON.parse(r.text), r.uri).toEqual(JSON.parse((read.contents[0] as { text: string }).text));
    }
    // The prompts that rest on preparation data carry it (prepare_next_round only with the opponent's account, below).
    expect(attached.length > 0, text).toBe(name === 'prepare_for_opponent' || name === 'review_openings');
  });

  test('prepare_next_round carries the scout of an online account the owner gives', async () => {
    const res = await pick('prepare_next_round', { tnr: '1234567', player: 'Carlsen', opponentProvider: 'lichess', opponentUsername: 'RivalX' });
    const text = (res.messages[0].content as { type: 'text'; text: string }).text;
    expect(text).toContain('The likely opponent plays online as RivalX on lichess');
    const uris = res.messages.slice(1).map((m) => (m.content as { resource: { uri: string } }).resource.uri);
    // Colour unknown: both of their trees come along (each cut as the text says).
    expect(uris).toContain('chess-footprint://players/siteB/RivalX');
    expect(uris).toContain('chess-footprint://players/siteB/RivalX/openings/white');
    expect(uris).toContain('chess-footprint://players/siteB/RivalX/openings/black');
    expect(text).toContain('If they have white: Their white tree (chess-footprint://players/siteB/RivalX/openings/white) is attached as');
    await expect(owner.getPrompt({ name: 'prepare_for_opponent', arguments: { provider: 'fics', username: 'x1' } })).rejects.toThrow(/provider/);
    await expect(owner.getPrompt({ name: 'prepare_for_opponent', arguments: { provider: 'lichess', username: 'https://evil.example/x' } })).rejects.toThrow(/username/);
    // The data prompts are the owner's: without the token, the tools' own message.
    await expect(anonymous.getPrompt({ name: 'prepare_for_opponent', arguments: { provider: 'lichess', username: 'RivalX' } })).rejects.toThrow(/token/i);
  });

  test('prompts/get refuses a missing or malformed argument, naming it', async () => {
    await expect(owner.getPrompt({ name: 'review_game', arguments: {} })).rejects.toThrow(/gameId/);
    await expect(owner.getPrompt({ name: 'prepare_next_round', arguments: { tnr: 'abc', player: 'X' } })).rejects.toThrow(/tnr/);
    await expect(owner.getPrompt({ name: 'quiz_me', arguments: { count: '99' } })).rejects.toThrow(/count/);
    await expect(owner.getPrompt({ name: 'no_such_prompt' })).rejects.toThrow(/no prompt named no_such_prompt/);
  });

  test('resources/templates/list: the ten templates', async () => {
    const { resourceTemplates } = await owner.listResourceTemplates();
    expect(resourceTemplates.map((t) => [t.uriTemplate, t.mimeType])).toEqual([
      ['chess-footprint://games/{id}.pgn', 'application/x-chess-pgn'],
      ['chess-footprint://reports/latest', 'text/markdown'],
      ['chess-footprint://library/{slug}', 'text/markdown'],
      ['chess-footprint://openings/{colour}{?moves}', 'application/json'],
      ['chess-footprint://openings/{colour}/peers{?moves}', 'application/json'],
      ['chess-footprint://schema/{tool}', 'application/json'],
      ['chess-footprint://players/{provider}/{username}', 'application/json'],
      ['chess-footprint://players/{provider}/{username}/openings/{colour}{?moves}', 'application/json'],
      ['chess-footprint://repertoire/{colour}', 'application/json'],
      ['chess-footprint://repertoire/{colour}/deviations', 'application/json'],
    ]);
  });

  test("the PGN resource is get_game's PGN; another owner's id and a made-up id are the same not-found", async () => {
    const uri = `chess-footprint://games/${pgnGameId}.pgn`;
    const read = await owner.readResource({ uri });
    const game = await owner.callTool({ name: 'get_game', arguments: { id: pgnGameId } });
    expect(read.contents).toEqual([{ uri, mimeType: 'application/x-chess-pgn', text: (game.structuredContent as { pgn: string }).pgn }]);
    expect((read.contents[0] as { text: string }).text).toBe(PGN);

    const foreign = await other.readResource({ uri }).catch((e: Error) => e);
    const unknown = await other.readResource({ uri: 'chess-footprint://games/00000000-0000-0000-0000-000000000000.pgn' }).catch((e: Error) => e);
    expect(foreign).toBeInstanceOf(Error);
    expect((foreign as { code?: number }).code).toBe(-32002);
    expect((foreign as Error).message).toBe((unknown as Error).message.replace('00000000-0000-0000-0000-000000000000', pgnGameId));
    expect((foreign as Error).message).not.toContain(pgnGameId);
  });

  test('personal resources need the token, with the same message as the tools', async () => {
    const err = (await anonymous.readResource({ uri: `chess-footprint://games/${pgnGameId}.pgn` }).catch((e: Error) => e)) as Error;
    expect(err.message).toContain('missing, invalid or revoked token: send Authorization: Bearer');
  });

  test('the weekly report resource: not found before the first report, then its Markdown', async () => {
    const before = (await owner.readResource({ uri: 'chess-footprint://reports/latest' }).catch((e: Error) => e)) as Error & { code: number };
    expect(before.code).toBe(-32002);
    expect(before.message).toContain('no weekly report has been generated yet');
    // The SDK's client prefixes "MCP error <code>: " once; the server sends the message without it (issue 38).
    expect(before.message).toMatch(/^MCP error -32002: no weekly report has been generated yet/);

    const me = app.deps.store.sqlite.prepare("SELECT id FROM users WHERE display_name = 'Owner'").get() as { id: string };
    generateReport(app.deps.store, app.deps.clock, me.id, '2026-11-13');
    const report = await owner.callTool({ name: 'get_weekly_report', arguments: {} });
    const r = report.structuredContent as { weekStart: string; weekEnd: string; shareUrl: string; sections: { siteB: { games: number } } };
    const md = (await owner.readResource({ uri: 'chess-footprint://reports/latest' })).contents[0] as { text: string; mimeType: string };
    expect(md.mimeType).toBe('text/markdown');
    expect(md.text.split('\n')[0]).toBe(`# Chess week ${r.weekStart} to ${r.weekEnd}`);
    // The week 2026-11-07..13 holds the one PGN game (played 2026-11-10, a win on lichess).
    expect(r.sections.siteB.games).toBe(1);
    expect(md.text).toContain('- Results: 1 game: 1 won, 0 drawn, 0 lost (score 100%)');
    expect(md.text).toContain(`[The report as a page](${r.shareUrl})`);
  });

  test('the library resource needs no token: essay then PGN, equal to get_library_game', async () => {
    const { games } = (await anonymous.callTool({ name: 'list_library_games', arguments: {} })).structuredContent as { games: Array<{ slug: string }> };
    const slug = games[0].slug;
    const uri = `chess-footprint://library/${slug}`;
    const read = await anonymous.readResource({ uri });
    const detail = (await anonymous.callTool({ name: 'get_library_game', arguments: { slug } })).structuredContent as { essay: string; pgn: string };
    expect(read.contents).toEqual([
      { uri, mimeType: 'text/markdown', text: detail.essay },
      { uri, mimeType: 'application/x-chess-pgn', text: detail.pgn },
    ]);
    const missing = (await anonymous.readResource({ uri: 'chess-footprint://library/no-such-game' }).catch((e: Error) => e)) as Error & { code: number };
    expect(missing.code).toBe(-32002);
  });

  test("the opening tree of the owner's games after 1. e4 c5 as White, against figures worked by hand", async () => {
    const read = await owner.readResource({ uri: 'chess-footprint://openings/white?moves=e4+c5' });
    const tree = JSON.parse((read.contents[0] as { text: string }).text);
    // Reaching the position: g1 (win), g2 (draw), Nc3 (loss), the opening-only "e4 c5" (win) = 4 games;
    // score (2 + 0.5) / 4 = 62.5%. The black game, the 1...e5 game and the other owner's game are out.
    expect(tree).toMatchObject({ colour: 'white', moves: ['e4', 'c5'], lineMoves: 'e4 c5', games: 4, score: 62.5, endedHere: 1, capped: false });
    expect(tree.nextMoves).toEqual([
      {
        san: 'Nf3',
        lineMoves: 'e4 c5 Nf3',
        games: 2,
        win: 1,
        draw: 1,
        loss: 0,
        score: 75,
        averageAccuracy: { games: 2, average: 75 },
        // After 3. Nf3 Black is to move: g1 −40 (Black's view) = +0.40 for White; g2 +20 = −0.20; mean +0.10.
        averageEvalAfter: { games: 2, pawns: 0.1 },
      },
      {
        san: 'Nc3',
        lineMoves: 'e4 c5 Nc3',
        games: 1,
        win: 0,
        draw: 0,
        loss: 1,
        score: 0,
        averageAccuracy: { games: 0, average: null },
        averageEvalAfter: { games: 0, pawns: null },
      },
    ]);
    // Its lineMoves links back to list_games: the same games.
    const listed = await owner.callTool({ name: 'list_games', arguments: { lineMoves: 'e4 c5 Nf3', colour: 'white' } });
    expect((listed.structuredContent as { total: number }).total).toBe(2);

    const start = JSON.parse(((await owner.readResource({ uri: 'chess-footprint://openings/white' })).contents[0] as { text: string }).text);
    expect(start.games).toBe(6);
    expect(start.nextMoves.map((m: { san: string; games: number }) => [m.san, m.games])).toEqual([['e4', 6]]);
  });

  test('the opening tree refuses a bad colour or an unknown parameter as invalid params', async () => {
    const bad = (await owner.readResource({ uri: 'chess-footprint://openings/green' }).catch((e: Error) => e)) as Error & { code: number };
    expect(bad.code).toBe(-32602);
    const extra = (await owner.readResource({ uri: 'chess-footprint://openings/white?moves=e4&x=1' }).catch((e: Error) => e)) as Error & { code: number };
    expect(extra.code).toBe(-32602);
    expect(extra.message).toContain('x');
  });
});

import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import type { Listening } from '../../src/http/listen.js';
import { storeDemoScout } from '../../src/services/prep/index.js';
import { EXPLORER_RATINGS } from '../../src/services/peers/index.js';
import { promptCompletions, resourceCompletions } from '../../tools/completions.js';
import { prompts } from '../../tools/prompts.js';
import { resourceDefinitions } from '../../tools/resources.js';
import { makeTestApp, type TestApp } from '../helpers/app.js';
import { addGames, gameRow } from '../helpers/games.js';
import { mcpClient, startServer } from '../helpers/server.js';
import { chessResultsServer, useClient } from '../helpers/chessResultsFixture.js';

/**
 * Issue 43, item 3: completion/complete for every prompt argument and resource template variable with a natural
 * list, owner-scoped, and the readable game names it offers resolved by prompts/get.
 */
describe('completion/complete', () => {
  let app: TestApp;
  let server: Listening;
  let alice: Client;
  let bob: Client;
  let anonymous: Client;
  const ids: Record<string, string> = {};

  beforeAll(async () => {
    app = makeTestApp({ now: '2026-11-20T12:00:00Z' });
    const a = app.addUser('Alice Owner');
    const b = app.addUser('Bob Other');
    // Alice: on lichess pawn_wizard158 three times (twice on 17 November), Knightmare once; on chess.com hikaru_fan
    // twice; one over-the-board game (fed). Her newest game is a loss, her newest win the 17 November morning game.
    const games: Array<[string, 'siteA' | 'siteB' | 'fed', string, string, 'win' | 'draw' | 'loss']> = [
      ['a1', 'siteB', 'pawn_wizard158', '2026-11-17T09:00:00.000Z', 'win'],
      ['a2', 'siteB', 'pawn_wizard158', '2026-11-17T21:00:00.000Z', 'draw'],
      ['a3', 'siteB', 'pawn_wizard158', '2026-11-10T12:00:00.000Z', 'loss'],
      ['a4', 'siteB', 'Knightmare', '2026-11-12T12:00:00.000Z', 'draw'],
      ['a5', 'siteA', 'hikaru_fan', '2026-11-18T12:00:00.000Z', 'loss'],
      ['a6', 'siteA', 'hikaru_fan', '2026-11-01T12:00:00.000Z', 'win'],
      ['a7', 'fed', 'Smith, John', '2026-10-01T12:00:00.000Z', 'win'],
    ];
    addGames(app.deps.store, app.clock, games.map(([sourceId, provider, opponent, playedAt, result]) => gameRow(a.user.id, { sourceId, provider, opponent, playedAt, result })));
    // Bob plays secret_rival five times on lichess and scouted bobs_target there.
    addGames(app.deps.store, app.clock, [1, 2, 3, 4, 5].map((i) => gameRow(b.user.id, { sourceId: `b${i}`, opponent: 'secret_rival', playedAt: `2026-11-1${i}T12:00:00.000Z` })));
    storeDemoScout(app.deps.store, app.deps.clock, b.user.id, 'siteB', 'bobs_target', [], 12);
    storeDemoScout(app.deps.store, app.deps.clock, a.user.id, 'siteB', 'RivalX', [], 12);
    for (const row of app.deps.store.sqlite.prepare('SELECT id, source_id FROM games').all() as Array<{ id: string; source_id: string }>) ids[row.source_id] = row.id;
    server = await startServer(app);
    alice = await mcpClient(server.url, a.token);
    bob = await mcpClient(server.url, b.token);
    anonymous = await mcpClient(server.url);
  });

  afterAll(async () => {
    await Promise.all([alice?.close(), bob?.close(), anonymous?.close()]);
    await server?.close();
    await app?.close();
  });

  const prompt = (client: Client, name: string, arg: string, value: string, context?: Record<string, string>) =>
    client.complete({ ref: { type: 'ref/prompt', name }, argument: { name: arg, value }, ...(context ? { context: { arguments: context } } : {}) }).then((r) => r.completion.values);
  const template = (client: Client, uri: string, arg: string, value: string, context?: Record<string, string>) =>
    client.complete({ ref: { type: 'ref/resource', uri }, argument: { name: arg, value }, ...(context ? { context: { arguments: context } } : {}) }).then((r) => r.completion.values);

  test('the server declares completions', () => {
    expect(alice.getServerCapabilities()?.completions).toEqual({});
  });

  test('usernames: opponents by games played on the site in context, then scouted players; never another owner’s', async () => {
    // lichess: pawn_wizard158 (3 games), Knightmare (1), then the scouted rivalx; fed's opponent is no username.
    expect(await prompt(alice, 'prepare_for_opponent', 'username', '', { provider: 'lichess' })).toEqual(['pawn_wizard158', 'Knightmare', 'rivalx']);
    expect(await prompt(alice, 'prepare_for_opponent', 'username', 'K', { provider: 'siteB' })).toEqual(['Knightmare']);
    expect(await prompt(alice, 'prepare_for_opponent', 'username', '', { provider: 'chess.com' })).toEqual(['hikaru_fan']);
    // No site given yet: both online sites, by games: 3, 2, 1, then the scout.
    expect(await prompt(alice, 'prepare_for_opponent', 'username', '')).toEqual(['pawn_wizard158', 'hikaru_fan', 'Knightmare', 'rivalx']);
    expect(await prompt(alice, 'prepare_next_round', 'opponentUsername', 'h', { opponentProvider: 'siteA' })).toEqual(['hikaru_fan']);
    expect(await template(alice, 'chess-footprint://players/{provider}/{username}', 'username', 'p', { provider: 'siteB' })).toEqual(['pawn_wizard158']);
    // Bob's opponent and scout are his alone.
    expect(await prompt(alice, 'prepare_for_opponent', 'username', 's', { provider: 'lichess' })).toEqual([]);
    expect(await prompt(alice, 'prepare_for_opponent', 'username', 'bob')).toEqual([]);
    expect(await prompt(bob, 'prepare_for_opponent', 'username', '', { provider: 'lichess' })).toEqual(['secret_rival', 'bobs_target']);
    expect(await prompt(anonymous, 'prepare_for_opponent', 'username', '', { provider: 'lichess' })).toEqual([]);
  });

  test('games: the "latest" names, then day and opponent, newest first; prompts/get resolves each to the game', async () => {
    expect(await prompt(alice, 'review_game', 'gameId', '')).toEqual([
      'latest',
      'latest win',
      'latest loss',
      'latest draw',
      '2026-11-18 vs hikaru_fan',
      '2026-11-17 vs pawn_wizard158 (game 2)',
      '2026-11-17 vs pawn_wizard158 (game 1)',
      '2026-11-12 vs Knightmare',
      '2026-11-10 vs pawn_wizard158',
      '2026-11-01 vs hikaru_fan',
      '2026-10-01 vs Smith, John',
    ]);
    expect(await prompt(alice, 'review_game', 'gameId', 'latest l')).toEqual(['latest loss']);
    expect(await prompt(alice, 'review_game', 'gameId', '2026-11-17')).toEqual(['2026-11-17 vs pawn_wizard158 (game 2)', '2026-11-17 vs pawn_wizard158 (game 1)']);
    expect(await prompt(bob, 'review_game', 'gameId', '2026-11-17')).toEqual([]);

    const reviewOf = async (client: Client, gameId: string) => ((await client.getPrompt({ name: 'review_game', arguments: { gameId } })).messages[0].content as { text: string }).text;
    // Newest loss a5 (18 Nov), newest win a1 (17 Nov 09:00), newest draw a2 (17 Nov 21:00), newest of all a5.
    expect(await reviewOf(alice, 'latest loss')).toContain(`Review my game ${ids.a5} (latest loss) with me.`);
    expect(await reviewOf(alice, 'latest win')).toContain(`Call get_game with id ${ids.a1}.`);
    expect(await reviewOf(alice, 'latest draw')).toContain(`Call get_game with id ${ids.a2}.`);
    expect(await reviewOf(alice, 'latest')).toContain(`Call get_game with id ${ids.a5}.`);
    expect(await reviewOf(alice, '2026-11-17 vs pawn_wizard158 (game 1)')).toContain(`Call get_game with id ${ids.a1}.`);
    expect(await reviewOf(alice, '2026-11-17 vs PAWN_WIZARD158 (game 2)')).toContain(`Call get_game with id ${ids.a2}.`);
    expect(await reviewOf(alice, '2026-11-10 vs pawn_wizard158')).toContain(`Call get_game with id ${ids.a3}.`);
    expect(await reviewOf(alice, ids.a4)).toContain(`Review my game ${ids.a4} with me.`);
    // Two games that day: ambiguous, with the names to give instead; unknown names, and another owner's game, are not found alike.
    await expect(reviewOf(alice, '2026-11-17 vs pawn_wizard158')).rejects.toThrow('2 games against pawn_wizard158 on 2026-11-17: say which, "2026-11-17 vs pawn_wizard158 (game 1)" to "(game 2)"');
    await expect(reviewOf(alice, '2026-11-17 vs pawn_wizard158 (game 3)')).rejects.toThrow('no game 3 against pawn_wizard158 on 2026-11-17');
    await expect(reviewOf(alice, '2026-11-17 vs nobody')).rejects.toThrow('no game against nobody on 2026-11-17');
    await expect(reviewOf(alice, 'my best game')).rejects.toThrow(/no game "my best game": give a game id from list_games, latest/);
    await expect(reviewOf(alice, ids.b1)).rejects.toThrow(`no game "${ids.b1}"`);
    await expect(reviewOf(bob, '2026-11-17 vs pawn_wizard158 (game 1)')).rejects.toThrow('no game 1 against pawn_wizard158 on 2026-11-17');
    await expect(reviewOf(anonymous, 'latest')).rejects.toThrow(/token/i);
  });

  test('tournaments looked at: the tnr of the owner’s tournament tools and prepare_next_round, newest first, not another owner’s', async () => {
    expect(await prompt(alice, 'prepare_next_round', 'tnr', '')).toEqual([]);
    // A chess-results stand-in serving the saved Jeddah pages (test/fixtures, as test/tools/tournaments.test.ts).
    const { server: chessResults } = await chessResultsServer(['1473782']);
    try {
      useClient(app, chessResults);
      expect((await alice.callTool({ name: 'get_tournament_state', arguments: { tnr: '1473782' } })).isError).toBeFalsy();
      // The same tool without a token is nobody's look.
      expect((await anonymous.callTool({ name: 'get_tournament_state', arguments: { tnr: '1473782' } })).isError).toBeFalsy();
      // A failed call remembers nothing.
      expect((await bob.callTool({ name: 'get_tournament_state', arguments: { tnr: '999' } })).isError).toBe(true);
    } finally {
      await chessResults.close();
    }
    expect(await prompt(alice, 'prepare_next_round', 'tnr', '')).toEqual(['1473782']);
    await alice.getPrompt({ name: 'prepare_next_round', arguments: { tnr: '1234567', player: 'Alice Owner' } });
    await alice.getPrompt({ name: 'prepare_next_round', arguments: { tnr: '7654321', player: 'Alice Owner' } });
    expect(await prompt(alice, 'prepare_next_round', 'tnr', '')).toEqual(['7654321', '1234567', '1473782']);
    expect(await prompt(alice, 'prepare_next_round', 'tnr', '12')).toEqual(['1234567']);
    expect(await prompt(bob, 'prepare_next_round', 'tnr', '')).toEqual([]);
    expect(await prompt(alice, 'prepare_next_round', 'player', 'al')).toEqual(['Alice Owner']);
  });

  test('fixed lists: colours, sites, bands, time classes, tools, and the game PGN ids', async () => {
    expect(await prompt(anonymous, 'prepare_for_opponent', 'colour', '')).toEqual(['white', 'black']);
    expect(await prompt(alice, 'review_openings', 'colour', 'b')).toEqual(['black']);
    expect(await prompt(alice, 'prepare_for_opponent', 'provider', '')).toEqual(['lichess', 'chess.com']);
    expect(await prompt(alice, 'prepare_next_round', 'opponentProvider', 'ch')).toEqual(['chess.com']);
    expect(await template(alice, 'chess-footprint://players/{provider}/{username}/openings/{colour}{?moves}', 'provider', '')).toEqual(['siteB', 'siteA']);
    expect(await template(alice, 'chess-footprint://players/{provider}/{username}/openings/{colour}{?moves}', 'colour', 'w')).toEqual(['white']);
    expect(await template(alice, 'chess-footprint://repertoire/{colour}/deviations', 'colour', '')).toEqual(['white', 'black']);
    // lichess's explorer rating groups (its API's `ratings` values) and the stats' time classes.
    expect(await prompt(alice, 'review_openings', 'band', '')).toEqual(EXPLORER_RATINGS.map(String));
    expect(await prompt(alice, 'review_openings', 'band', '1')).toEqual(['1000', '1200', '1400', '1600', '1800']);
    expect(await prompt(alice, 'review_openings', 'timeClass', 'b')).toEqual(['bullet', 'blitz']);
    expect(await template(anonymous, 'chess-footprint://schema/{tool}', 'tool', 'get_game')).toEqual(['get_game', 'get_game_analysis']);
    expect((await template(anonymous, 'chess-footprint://library/{slug}', 'slug', '')).length).toBeGreaterThan(0);
    // Games without a stored PGN have no PGN resource: none of these has one.
    expect(await template(alice, 'chess-footprint://games/{id}.pgn', 'id', '')).toEqual([]);
    // No natural list: no values, not an error.
    expect(await prompt(alice, 'quiz_me', 'count', '')).toEqual([]);
    await expect(prompt(alice, 'no_such_prompt', 'x', '')).rejects.toThrow(/no prompt named no_such_prompt/);
    await expect(template(alice, 'chess-footprint://nowhere/{x}', 'x', '')).rejects.toThrow(/no resource template/);
  });

  test('every argument and template variable is either completed or has no natural list', () => {
    const noList = new Set(['coaching_session.minutes', 'quiz_me.count', 'moves']);
    for (const p of prompts) {
      for (const arg of Object.keys(p.arguments.shape)) {
        const key = `${p.name}.${arg}`;
        expect(Boolean(promptCompletions[p.name]?.[arg]) !== noList.has(key), key).toBe(true);
      }
    }
    for (const d of resourceDefinitions) {
      const vars = [...d.template.uriTemplate.matchAll(/\{\??([a-z,]+)\}/gi)].flatMap((m) => m[1].split(','));
      for (const v of vars) expect(Boolean(resourceCompletions[d.template.uriTemplate]?.[v]) !== noList.has(v), `${d.template.uriTemplate} ${v}`).toBe(true);
    }
    // And nothing completed that is not there.
    for (const [name, args] of Object.entries(promptCompletions)) for (const arg of Object.keys(args)) expect(prompts.find((p) => p.name === name)?.arguments.shape, `${name}.${arg}`).toHaveProperty(arg);
    for (const uri of Object.keys(resourceCompletions)) expect(resourceDefinitions.some((d) => d.template.uriTemplate === uri), uri).toBe(true);
  });
});

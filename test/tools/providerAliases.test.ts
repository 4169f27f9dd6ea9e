import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { tools } from '../../tools/index.js';
import { makeTestApp, type TestApp } from '../helpers/app.js';
import { addGames, gameRow } from '../helpers/games.js';
import { rest, startServer } from '../helpers/server.js';
import type { Listening } from '../../src/http/listen.js';

/**
 * Issue 45 item 13: the tools take the sites' names for the providers ("lichess", "chess.com", "ecf",
 * any case) as the CLI's `connect` does, and answer with the canonical siteA, siteB, fed.
 */

let app: TestApp;
let token: string;
let server: Listening;
const tool = (name: string) => tools.find((t) => t.name === name)!;

beforeAll(async () => {
  app = makeTestApp();
  const me = app.addUser();
  token = me.token;
  // Two lichess games, one chess.com game, one over-the-board game: counts worked out from these rows.
  addGames(app.deps.store, app.deps.clock, [
    gameRow(me.user.id, { sourceId: 'b1', provider: 'siteB', playedAt: '2026-11-01T12:00:00.000Z' }),
    gameRow(me.user.id, { sourceId: 'b2', provider: 'siteB', playedAt: '2026-11-02T12:00:00.000Z', result: 'loss' }),
    gameRow(me.user.id, { sourceId: 'a1', provider: 'siteA', playedAt: '2026-11-03T12:00:00.000Z', sourceUrl: 'https://www.chess.com/game/live/1' }),
    gameRow(me.user.id, { sourceId: 'f1', provider: 'fed', playedAt: '2026-11-04T12:00:00.000Z', timeClass: 'standard', sourceUrl: 'https://example.test/ecf' }),
  ]);
  server = await startServer(app);
});
afterAll(async () => {
  await server.close();
  await app.close();
});

describe('provider names', () => {
  test.each([
    ['lichess', ['siteB'], 2],
    ['LiChess', ['siteB'], 2],
    ['chess.com', ['siteA'], 1],
    ['chesscom,lichess', ['siteA', 'siteB'], 3],
    ['ecf', ['fed'], 1],
    ['siteB,lichess', ['siteB'], 2],
  ])('list_games provider=%s is %j: %i games, the filter echoed canonical', async (provider, canonical, total) => {
    const res = await app.call(tool('list_games'), { provider }, token);
    expect(res.status).toBe(200);
    expect((res.body as any).filters.providers).toEqual(canonical);
    expect((res.body as any).total).toBe(total);
    expect(new Set((res.body as any).games.map((g: { provider: string }) => g.provider))).toEqual(new Set(canonical));
  });

  test('get_chess_stats and get_rating_progress take them too; the echo is canonical', async () => {
    const stats = await app.call(tool('get_chess_stats'), { provider: 'lichess', range: 'all' }, token);
    expect(stats.status).toBe(200);
    expect((stats.body as any).filters.providers).toEqual(['siteB']);
    expect((stats.body as any).games).toBe(2);
    const ratings = await app.call(tool('get_rating_progress'), { provider: 'chess.com', range: 'all' }, token);
    expect(ratings.status).toBe(200);
    expect(((ratings.body as any).lines as Array<{ provider: string }>).every((l) => l.provider === 'siteA')).toBe(true);
  });

  test('an unknown name is a 400 naming the accepted ones; nothing else changes', async () => {
    const res = await app.call(tool('list_games'), { provider: 'fide' }, token);
    expect(res.status).toBe(400);
    expect((res.body as any).error).toContain('unknown provider "fide": use comma-separated siteA, siteB, fed, manual, pgn (chess.com, lichess and ecf are accepted too)');
  });

  test('over REST the query takes them as well', async () => {
    const res = await rest(server.url, '/api/v1/me/games?provider=lichess', { token });
    expect(res.status).toBe(200);
    expect(res.body.filters.providers).toEqual(['siteB']);
    expect(res.body.total).toBe(2);
  });
});

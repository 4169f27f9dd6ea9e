import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { seedDemo } from '../../src/demo/index.js';
import type { Listening } from '../../src/http/listen.js';
import { tools } from '../../tools/index.js';
import { makeTestApp, type TestApp } from '../helpers/app.js';
import { mcpClient, rest, startServer } from '../helpers/server.js';

let app: TestApp;
let server: Listening;
let client: Client;
let token: string;
let gameId: string;
let studyId: string;

beforeAll(async () => {
  app = makeTestApp({ now: '2026-11-21T12:00:00Z' });
  ({ token } = await seedDemo(app.deps, { games: 60, seed: 5, log: () => {} }));
  gameId = (app.deps.store.sqlite.prepare("SELECT id FROM games WHERE moves_source = 'pgn' LIMIT 1").get() as { id: string }).id;
  studyId = (app.deps.store.sqlite.prepare('SELECT id FROM study_games LIMIT 1').get() as { id: string }).id;
  server = await startServer(app);
  client = await mcpClient(server.url, token);
  // Listing first makes the SDK client check every structuredContent below against the listed (lean)
  // output schema: callTool throws when an answer does not match it.
  expect((await client.listTools()).tools).toHaveLength(tools.length);
}, 120_000);
afterAll(async () => {
  await client.close();
  await server.close();
  await app.close();
});

/** Every read tool that needs no outside source, with inputs a caller would send (REST query ↔ MCP arguments). */
const CASES: Array<[string, Record<string, string | number | boolean>]> = [
  ['get_profile', {}],
  ['get_chess_stats', { range: 'all', provider: 'siteA,siteB' }],
  ['get_rating_progress', { range: 'all' }],
  ['list_games', { result: 'loss', sort: 'date-asc' }],
  ['get_game', { id: '{game}' }],
  ['get_game_analysis', { id: '{game}', limit: 5 }],
  ['get_critical_moments', { id: '{game}' }],
  ['get_problem_lines', {}],
  ['get_weekly_report', {}],
  ['get_puzzle_stats', {}],
  ['list_study_games', {}],
  ['get_weakness_profile', { range: 'all' }],
  ['get_coaching_state', {}],
  ['list_saved_positions', { dueForQuiz: true }],
  ['list_library_games', { era: 'romantic' }],
  ['get_library_game', { slug: 'morphy-brunswick-isouard-1858' }],
  ['calculate_ecf_rating_change', { currentRating: 1850, games: '1900 w, 1700 d, 2000 loss' }],
];

describe('REST and MCP return the same JSON for every read tool', () => {
  test('the cases cover every GET tool but the three that read chess-results', () => {
    const covered = new Set(CASES.map(([n]) => n));
    const gets = tools.filter((t) => t.rest.method === 'GET' && t.family !== 'tournament').map((t) => t.name);
    expect(gets.filter((n) => !covered.has(n))).toEqual([]);
  });

  test.each(CASES)('%s', async (name, rawArgs) => {
    const args = Object.fromEntries(Object.entries(rawArgs).map(([k, v]) => [k, v === '{game}' ? gameId : v === '{study}' ? studyId : v]));
    const tool = tools.find((t) => t.name === name)!;
    let path = tool.rest.path;
    const query = new URLSearchParams();
    for (const [k, v] of Object.entries(args)) {
      if (path.includes(`{${k}}`)) path = path.replace(`{${k}}`, encodeURIComponent(String(v)));
      else query.set(k, String(v));
    }
    const r = await rest(server.url, `${path}${query.size ? `?${query}` : ''}`, { token });
    expect(r.status, JSON.stringify(r.body).slice(0, 300)).toBe(200);
    const m = await client.callTool({ name, arguments: args });
    expect(m.isError).toBeFalsy();
    expect(m.structuredContent).toEqual(r.body);
  });
});

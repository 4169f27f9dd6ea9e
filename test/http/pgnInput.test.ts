import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import type { Listening } from '../../src/http/listen.js';
import { insertGames } from '../../src/services/games/gameWriter.js';
import { makeTestApp, type TestApp } from '../helpers/app.js';
import { gameRow } from '../helpers/games.js';
import { mcpClient, rest, startServer } from '../helpers/server.js';

/**
 * Malformed PGN sent to attach_pgn and upload_study_game: a 400 naming what is wrong over REST and HTTP
 * MCP (stdio: test/cli/cli.test.ts), and a fuzz over thousands of mutations of the shipped games in which
 * no answer is a 5xx and no refused upload writes a row.
 */

let app: TestApp;
let server: Listening;
let client: Client;
let token: string;
let movelessId: string;

beforeAll(async () => {
  app = makeTestApp();
  const u = app.addUser('Fuzz Owner');
  token = u.token;
  insertGames(app.deps.store, app.deps.clock, [{ game: gameRow(u.user.id, { sourceId: 'otb-1', provider: 'fed', sourceUrl: '' }) }]);
  movelessId = (app.deps.store.sqlite.prepare('SELECT id FROM games LIMIT 1').get() as { id: string }).id;
  server = await startServer(app);
  client = await mcpClient(server.url, token);
});
afterAll(async () => {
  await client?.close();
  await server?.close();
  await app?.close();
});

/** Rows of every table a PGN upload or attach can write. */
function rowCounts() {
  const q = (sql: string) => (app.deps.store.sqlite.prepare(sql).get() as { n: number }).n;
  return {
    games: q('SELECT count(*) n FROM games'),
    versions: q('SELECT coalesce(sum(version), 0) n FROM games'),
    pgns: q('SELECT count(*) n FROM pgns'),
    study: q('SELECT count(*) n FROM study_games'),
  };
}

const BRACES: Array<[string, RegExp]> = [
  ['1. e4 } e5', /^unparseable PGN: a } near "1\. e4 } e5" \(line 1\) closes no comment$/],
  ['1. e4 {a {b} c} e5', /^unparseable PGN: a \{ inside a comment near .*; PGN comments do not nest$/],
  ['1. e4 e5 {never closed', /^unparseable PGN: the \{ comment opened near .* is never closed$/],
  ['[Event "x"]\n\n1. e4 e5 2. Nf3 }} Nc6 *', /^unparseable PGN: a } near "4 e5 2\. Nf3 }} Nc6 \*" \(line 3\) closes no comment$/],
];

describe.each(BRACES)('%j', (pgn, message) => {
  test('REST: 400 naming the fault, nothing written (attach_pgn and upload_study_game)', async () => {
    const before = rowCounts();
    const study = await rest(server.url, '/api/v1/me/study', { method: 'POST', token, headers: { 'content-type': 'application/json' }, body: JSON.stringify({ pgn }) });
    expect(study.status).toBe(400);
    expect(study.body.error).toMatch(message);
    const attach = await rest(server.url, `/api/v1/me/games/${movelessId}`, { method: 'POST', token, headers: { 'content-type': 'application/json' }, body: JSON.stringify({ pgn }) });
    expect(attach.status).toBe(400);
    expect(attach.body.error).toMatch(message);
    expect(rowCounts()).toEqual(before);
  });

  test('HTTP MCP: an error result with the same message', async () => {
    for (const [name, args] of [
      ['upload_study_game', { pgn }],
      ['attach_pgn', { id: movelessId, pgn }],
    ] as const) {
      const r = await client.callTool({ name, arguments: args });
      expect(r.isError).toBe(true);
      expect((JSON.parse((r.content as Array<{ text: string }>)[0].text) as { error: string }).error).toMatch(message);
    }
  });
});

/** mulberry32: a small seeded PRNG, so the fuzz is the same every run. */
function prng(seed: number) {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const LIBRARY = join(import.meta.dirname, '../../data/library');
const SHIPPED = readdirSync(LIBRARY)
  .filter((d) => !d.includes('.'))
  .map((d) => readFileSync(join(LIBRARY, d, 'game.pgn'), 'utf8'));

// PGN's own syntax characters and tokens, and a few that are not PGN at all.
const HOSTILE = ['{', '}', '(', ')', ';', '[', ']', '"', '\\', '$', '$999', '%', '\n', '\r', '*', '1-0', '1/2-1/2', '0-0-0', '--', 'Z0', '...', '\u0000', '\uFEFF', '\uD800', 'é', '{}', '}{', '((', '))', '[%clk 0:00:01]', '[FEN "8/8/8/8/8/8/8/8 w - - 0 1"]', 'e8=Q', 'Kxe1', '\t'];

function mutate(text: string, rand: () => number): string {
  let s = text;
  const steps = 1 + Math.floor(rand() * 3);
  for (let k = 0; k < steps; k++) {
    const at = Math.floor(rand() * (s.length + 1));
    const len = Math.floor(rand() * 12);
    switch (Math.floor(rand() * 6)) {
      case 0:
      case 1:
        s = s.slice(0, at) + HOSTILE[Math.floor(rand() * HOSTILE.length)] + s.slice(at);
        break;
      case 2:
        s = s.slice(0, at) + s.slice(at + len);
        break;
      case 3:
        s = s.slice(0, at) + s.slice(at, at + len) + s.slice(at, at + len) + s.slice(at + len);
        break;
      case 4:
        s = s.slice(0, at);
        break;
      default:
        s = s.slice(0, at) + String.fromCharCode(32 + Math.floor(rand() * 95)) + s.slice(at + 1);
    }
  }
  return s;
}

test('fuzz: 2,000 mutated shipped games over REST: no 5xx, and every 400 writes nothing', { timeout: 120_000 }, async () => {
  const rand = prng(20261124);
  const statuses = new Map<number, number>();
  const fives: string[] = [];
  const writesOn400: string[] = [];
  for (let i = 0; i < 2000; i++) {
    const pgn = mutate(SHIPPED[Math.floor(rand() * SHIPPED.length)], rand);
    const path = i % 3 === 0 ? `/api/v1/me/games/${movelessId}` : '/api/v1/me/study';
    const before = rowCounts();
    const r = await rest(server.url, path, { method: 'POST', token, headers: { 'content-type': 'application/json' }, body: JSON.stringify({ pgn }) });
    statuses.set(r.status, (statuses.get(r.status) ?? 0) + 1);
    if (r.status >= 500) fives.push(`${r.status} ${JSON.stringify(pgn.slice(0, 200))}: ${JSON.stringify(r.body)}`);
    if (r.status === 400) {
      expect(typeof r.body.error).toBe('string');
      const after = rowCounts();
      if (JSON.stringify(after) !== JSON.stringify(before)) writesOn400.push(JSON.stringify(pgn.slice(0, 200)));
    }
  }
  expect(fives).toEqual([]);
  expect(writesOn400).toEqual([]);
  // The mutations reach both outcomes: most are refused, some still are a legal game.
  expect(statuses.get(400)).toBeGreaterThan(700);
  expect(statuses.get(200) ?? 0).toBeGreaterThan(0);
});

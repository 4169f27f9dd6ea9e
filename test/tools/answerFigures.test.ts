import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { seedDemo } from '../../src/demo/index.js';
import { CONCEPT_RULES } from '../../src/chess/concepts.js';
import { CONVENTION_RULES } from '../../src/chess/evaluation.js';
import { outputJsonSchema } from '../../tools/jsonSchema.js';
import { tools } from '../../tools/index.js';
import { makeTestApp, type TestApp } from '../helpers/app.js';

/**
 * Issue 45 item 12: answers carry no repeated boilerplate and no unrounded floats. Every read-only
 * tool that needs no network is called on the demo store (the store a newcomer meets first); every
 * number in every answer is checked for its decimals.
 */

let app: TestApp;
let token: string;
const tool = (name: string) => tools.find((t) => t.name === name)!;
async function call(name: string, input: Record<string, unknown> = {}) {
  const res = await app.call(tool(name), input, token);
  expect(res.status, `${name}: ${JSON.stringify(res.body).slice(0, 300)}`).toBe(200);
  return res.body as Record<string, any>;
}

/** Each non-integer number in an answer with its path, when it has more than `max` decimals. */
function longFloats(value: unknown, max: number, path = ''): string[] {
  if (Array.isArray(value)) return value.flatMap((v, i) => longFloats(v, max, `${path}[${i}]`));
  if (value && typeof value === 'object') return Object.entries(value).flatMap(([k, v]) => longFloats(v, max, `${path}.${k}`));
  if (typeof value === 'number' && !Number.isInteger(value) && (String(value).split('.')[1]?.length ?? 0) > max) return [`${path} = ${value}`];
  return [];
}

beforeAll(async () => {
  app = makeTestApp();
  ({ token } = await seedDemo(app.deps, { games: 500, seed: 1, log: () => {} }));
}, 120_000);
afterAll(async () => app.close());

describe('answers on the demo store', { timeout: 120_000 }, () => {
  test('no figure in any answer has more than three decimals (weakness rates, ECF K, …)', async () => {
    const reviewed = (await call('list_games', { reviewed: 'yes' })).games as Array<{ id: string }>;
    expect(reviewed.length).toBeGreaterThan(0);
    const id = reviewed[0].id;
    const slug = ((await call('list_library_games')).games as Array<{ slug: string }>)[0].slug;
    const answers: Array<[string, Record<string, unknown>]> = [
      ['get_profile', {}],
      ['get_chess_stats', { range: 'all' }],
      ['get_rating_progress', { range: 'all' }],
      ['list_games', {}],
      ['get_game', { id }],
      ['get_game_analysis', { id }],
      ['get_critical_moments', { id, minCentipawnLoss: 30 }],
      ['get_problem_lines', {}],
      ['get_weekly_report', {}],
      ['get_puzzle_stats', {}],
      ['list_study_games', {}],
      ['get_weakness_profile', { range: 'all' }],
      ['get_coaching_state', {}],
      ['list_saved_positions', {}],
      ['list_library_games', {}],
      ['get_library_game', { slug }],
      // 3 games in the month: kMax = 700 / 3 = 233.33…
      ['calculate_ecf_rating_change', { currentRating: 1650, games: '1700 w, 1500 d, 1800 l' }],
    ];
    const found: string[] = [];
    for (const [name, input] of answers) found.push(...longFloats(await call(name, input), 3).map((f) => `${name}${f}`));
    expect(found).toEqual([]);
  });

  test('the weakness profile publishes its rates to three decimals: errors / moves worked out by hand from its own counts', async () => {
    const w = await call('get_weakness_profile', { range: 'all' });
    expect(w.moves).toBeGreaterThan(0);
    expect(w.overallErrorRate).toBe(Math.round((w.errors / w.moves) * 1000) / 1000);
    for (const b of [...w.ranked, ...w.unranked, ...w.lowSample]) expect(b.errorRate).toBe(b.moves ? Math.round((b.errors / b.moves) * 1000) / 1000 : 0);
  });

  test('the ECF calculator: 700 / 3 is published as 233.33; with 36 games K = 19.44 and the change 9.72 (19.444… × 0.5), the new rating from the exact figure', async () => {
    const three = await call('calculate_ecf_rating_change', { currentRating: 1650, games: '1700 w, 1500 d, 1800 l' });
    expect(three.kMax).toBe(233.33);
    const capped = await call('calculate_ecf_rating_change', { currentRating: 1800, games: '1800 w', gamesThisMonth: 36 });
    expect([capped.k, capped.kMax, capped.change, capped.newRating, capped.games[0].contribution]).toEqual([19.44, 19.44, 9.72, 1810, 9.72]);
  });

  test('analysis and moments answers carry their notes short; the full rules are stated once, in the output schema', async () => {
    const id = ((await call('list_games', { reviewed: 'yes' })).games as Array<{ id: string }>)[0].id;
    for (const name of ['get_critical_moments', 'get_game_analysis']) {
      const body = await call(name, { id });
      const notes = JSON.stringify(body.conventions.notes) + JSON.stringify(body.availability.notes);
      // Before: 3,150 characters of the same text on every call.
      expect(notes.length, name).toBeLessThan(900);
      expect(Object.keys(body.conventions.notes).sort()).toEqual(['capCentipawns', 'evalFrame', 'lossReconciles']);
      expect(Object.keys(body.availability.notes)).toEqual(['concepts']);
      const schema = JSON.stringify(outputJsonSchema(tool(name)));
      expect(schema).toContain(JSON.stringify(CONCEPT_RULES).slice(1, -1));
      for (const rule of Object.values(CONVENTION_RULES)) expect(schema).toContain(JSON.stringify(rule).slice(1, -1));
    }
  });
});

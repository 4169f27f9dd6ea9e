import { describe, expect, test } from 'vitest';
import { z } from 'zod';
import { inputJsonSchema, outputJsonSchema } from '../../tools/jsonSchema.js';
import { pathParams } from '../../tools/defineTool.js';
import { tools } from '../../tools/index.js';

// Spec section 4.5: the tool for every REST route.
const SPEC_TOOLS: Array<[string, string, string]> = [
  ['GET', '/api/v1/me', 'get_profile'],
  ['GET', '/api/v1/me/stats', 'get_chess_stats'],
  ['GET', '/api/v1/me/ratings', 'get_rating_progress'],
  ['GET', '/api/v1/me/games', 'list_games'],
  ['GET', '/api/v1/me/games/{id}', 'get_game'],
  ['GET', '/api/v1/me/games/{id}/analysis', 'get_game_analysis'],
  ['GET', '/api/v1/me/games/{id}/critical-moments', 'get_critical_moments'],
  ['POST', '/api/v1/me/games/{id}', 'attach_pgn'],
  ['POST', '/api/v1/me/games/{id}/review', 'request_game_review'],
  ['GET', '/api/v1/me/problem-lines', 'get_problem_lines'],
  ['GET', '/api/v1/me/report/latest', 'get_weekly_report'],
  ['GET', '/api/v1/me/puzzles', 'get_puzzle_stats'],
  ['GET', '/api/v1/me/study', 'list_study_games'],
  ['POST', '/api/v1/me/study', 'upload_study_game'],
  ['POST', '/api/v1/me/study/{id}/review', 'request_study_analysis'],
  ['DELETE', '/api/v1/me/study/{id}', 'delete_study_game'],
  ['GET', '/api/v1/me/weakness-profile', 'get_weakness_profile'],
  ['GET', '/api/v1/me/coaching/state', 'get_coaching_state'],
  ['POST', '/api/v1/me/coaching/focus', 'set_training_focus'],
  ['POST', '/api/v1/me/coaching/entries', 'add_coaching_entry'],
  ['POST', '/api/v1/me/coaching/positions', 'save_position'],
  ['GET', '/api/v1/me/coaching/positions', 'list_saved_positions'],
  ['DELETE', '/api/v1/me/coaching/positions/{id}', 'remove_saved_position'],
  ['GET', '/api/v1/library', 'list_library_games'],
  ['GET', '/api/v1/library/{slug}', 'get_library_game'],
  ['GET', '/api/v1/tournaments/{tnr}/state', 'get_tournament_state'],
  ['GET', '/api/v1/tournaments/{tnr}/round1', 'estimate_round1'],
  ['GET', '/api/v1/tournaments/{tnr}/pairings', 'estimate_pairings'],
  ['GET', '/api/v1/fed/rating-change', 'calculate_ecf_rating_change'],
];

describe('the tool registry', () => {
  test('holds exactly the 29 tools of the spec, in its order, with its routes', () => {
    expect(tools.map((t) => [t.rest.method, t.rest.path, t.name])).toEqual(SPEC_TOOLS);
  });

  test('names and method+path pairs are unique; names are snake_case without dots', () => {
    expect(new Set(tools.map((t) => t.name)).size).toBe(29);
    expect(new Set(tools.map((t) => `${t.rest.method} ${t.rest.path}`)).size).toBe(29);
    for (const t of tools) expect(t.name).toMatch(/^[a-z][a-z0-9]*(_[a-z0-9]+)*$/);
  });

  test.each(tools.map((t) => [t.name, t] as const))('%s: every path parameter is a required string input', (_, t) => {
    const shape = t.input.shape as Record<string, z.ZodType>;
    for (const p of pathParams(t.rest.path)) {
      expect(shape[p], `${t.name} lacks input ${p}`).toBeDefined();
      expect(shape[p].safeParse(undefined).success).toBe(false);
    }
  });

  test.each(tools.map((t) => [t.name, t] as const))('%s: input and output are objects with described fields', (_, t) => {
    // What tools/list publishes: MCP requires an object schema at the root of both.
    expect(inputJsonSchema(t).type).toBe('object');
    expect(outputJsonSchema(t).type).toBe('object');
    for (const [field, schema] of Object.entries(t.input.shape as Record<string, z.ZodType>)) {
      expect(schema.description, `${t.name}.${field} needs .describe()`).toBeTruthy();
    }
    expect(t.description.length).toBeGreaterThan(40);
  });

  test("request_game_review states the engine budgets a review gets by default (30,000 nodes, MultiPV 2, a deeper look at 100,000)", () => {
    // The figures of docs/engine.md's fidelity measurement (CFP_ENGINE_NODES, CFP_ENGINE_MULTIPV, CFP_ENGINE_DEEP_NODES defaults).
    const text = tools.find((t) => t.name === 'request_game_review')!.description;
    expect(text).toContain('Fixed node budgets (default 30,000 nodes a position, MultiPV 2; a deeper look at 100,000 where that cannot settle)');
    expect(text).not.toMatch(/100,000 nodes by default/);
  });

  test('public tools are GETs; personal paths live under /api/v1/me', () => {
    for (const t of tools) {
      if (t.access === 'public') expect(t.rest.method).toBe('GET');
      else expect(t.rest.path.startsWith('/api/v1/me')).toBe(true);
    }
  });

  test('writes are not read-only and deletes are destructive', () => {
    for (const t of tools) {
      expect(t.annotations.readOnlyHint).toBe(t.rest.method === 'GET');
      expect(t.annotations.destructiveHint).toBe(t.rest.method === 'DELETE');
    }
  });
});

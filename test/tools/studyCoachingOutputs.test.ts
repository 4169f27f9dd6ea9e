import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import type { AnyTool } from '../../tools/defineTool.js';
import { addCoachingEntry } from '../../tools/coaching/add_coaching_entry.js';
import { getCoachingState } from '../../tools/coaching/get_coaching_state.js';
import { listSavedPositions } from '../../tools/coaching/list_saved_positions.js';
import { removeSavedPosition } from '../../tools/coaching/remove_saved_position.js';
import { savePosition } from '../../tools/coaching/save_position.js';
import { setTrainingFocus } from '../../tools/coaching/set_training_focus.js';
import { deleteStudyGame } from '../../tools/study/delete_study_game.js';
import { listStudyGames } from '../../tools/study/list_study_games.js';
import { uploadStudyGame } from '../../tools/study/upload_study_game.js';
import { seedCoaching } from '../../src/demo/coaching.js';
import { seededRandom } from '../../src/demo/rng.js';
import { seedStudy } from '../../src/demo/study.js';
import { makeTestApp, type TestApp } from '../helpers/app.js';
import { OPERA_PGN, RUY_LOPEZ_FEN } from '../services/coaching/coachingFixtures.js';

// Every 200 answer of the study and coaching tools parses with the tool's declared output schema,
// and carries no field the schema does not declare (what an agent reads is what is documented).
let app: TestApp;
let token: string;
beforeAll(async () => {
  app = makeTestApp();
  const owner = app.addUser();
  token = owner.token;
  const demo = { store: app.deps.store, clock: app.clock, user: owner.user, rng: seededRandom(7), games: 0, log: () => {} };
  await seedStudy(demo);
  await seedCoaching(demo);
});
afterAll(() => app.close());

function undeclared(value: unknown, schema: unknown, path = ''): string[] {
  const shape = (schema as { shape?: Record<string, unknown> }).shape;
  if (!shape || typeof value !== 'object' || value === null || Array.isArray(value)) return [];
  return Object.keys(value).filter((k) => !(k in shape)).map((k) => `${path}${k}`);
}

async function check(tool: AnyTool, input: unknown) {
  const res = await app.call(tool, input, token);
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  const parsed = tool.output.safeParse(res.body);
  expect(parsed.success, parsed.success ? '' : JSON.stringify(parsed.error.issues.slice(0, 3))).toBe(true);
  expect(undeclared(res.body, tool.output)).toEqual([]);
  return res.body as Record<string, unknown>;
}

describe('study and coaching outputs match their schemas', () => {
  test('reads', async () => {
    await check(listStudyGames, {});
    await check(getCoachingState, {});
    await check(listSavedPositions, { dueForQuiz: true });
  });

  test('writes', async () => {
    const row = await check(uploadStudyGame, { pgn: OPERA_PGN.replace('Casual game', 'Another copy') });
    expect(row.duplicate).toBe(true);
    await check(deleteStudyGame, { id: row.id });
    const state = await check(getCoachingState, {});
    const active = (state.focuses as { active: Array<{ id: string }> }).active;
    await check(setTrainingFocus, { focusId: active[0].id, title: 'Retitled' });
    await check(addCoachingEntry, { kind: 'note', body: 'x', focusId: active[0].id });
    const pos = await check(savePosition, { fen: RUY_LOPEZ_FEN, label: 'Ruy', why: 'plans' });
    await check(removeSavedPosition, { id: pos.id });
  });
});

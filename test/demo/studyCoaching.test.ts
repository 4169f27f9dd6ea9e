import { afterEach, beforeEach, describe, expect, test } from 'vitest';
import { seedCoaching } from '../../src/demo/coaching.js';
import { seededRandom } from '../../src/demo/rng.js';
import type { DemoContext } from '../../src/demo/seeder.js';
import { seedStudy } from '../../src/demo/study.js';
import { getCoachingState } from '../../tools/coaching/get_coaching_state.js';
import { listSavedPositions } from '../../tools/coaching/list_saved_positions.js';
import { listStudyGames } from '../../tools/study/list_study_games.js';
import { makeTestApp, type TestApp } from '../helpers/app.js';

let app: TestApp;
beforeEach(() => {
  app = makeTestApp();
});
afterEach(() => app.close());

describe('study and coaching demo seeders', () => {
  test('fill the owner’s collection and coaching state through the services', async () => {
    const { user, token } = app.addUser();
    const demo: DemoContext = { store: app.deps.store, clock: app.clock, user, rng: seededRandom(1), games: 0, log: () => {} };
    await seedStudy(demo);
    await seedCoaching(demo);
    const study = (await app.call(listStudyGames, {}, token)).body as { games: Array<{ black: string; notesCount: number; plyCount: number }>; total: number };
    // Newest first: Byrne–Fischer (41...Rc2#: 40 × 2 + 2 = 82 plies), Lasker–Bauer (38.Qxd3: 75), Immortal (23.Be7#: 45), Opera (17.Rd8#: 33).
    expect(study.games.map((g) => [g.plyCount, g.notesCount])).toEqual([
      [82, 3],
      [75, 4],
      [45, 4],
      [33, 5],
    ]);
    const state = (await app.call(getCoachingState, {}, token)).body as {
      focuses: { active: unknown[]; recentlyResolved: unknown[] };
      openAssignments: Array<{ body: string }>;
      positions: { count: number; dueForQuiz: number };
      lastSessionAt: string;
      entries: Array<{ kind: string; createdAt: string }>;
    };
    expect([state.focuses.active.length, state.focuses.recentlyResolved.length]).toEqual([2, 1]);
    expect(state.openAssignments).toHaveLength(2);
    // Positions 1 (right), 2 (wrong, then right) are not due; 3 and 5 never quizzed, 4 wrong: 3 due.
    expect(state.positions).toEqual({ count: 5, dueForQuiz: 3, limit: 500 });
    expect(state.lastSessionAt).toBe(state.entries.find((e) => e.kind === 'session')!.createdAt);
    // Every saved FEN was replayed from a real game, so each is a legal position the service accepted.
    const listed = (await app.call(listSavedPositions, {}, app.addUser().token)).body as { total: number };
    expect(listed.total).toBe(0);
  });
});

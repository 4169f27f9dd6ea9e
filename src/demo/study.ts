import type { PersonalCtx } from '../context.js';
import { uploadStudyGame } from '../services/study/index.js';
import { DEMO_STUDY_GAMES, demoPgn } from './classicsForStudy.js';
import type { DemoContext, DemoSeeder } from './seeder.js';

/**
 * The study and coaching services read only the store, the clock and the owner from their
 * context; the demo has no limiter or runtime, and needs none for these writes.
 */
export function demoOwnerCtx(demo: DemoContext, clock = demo.clock): PersonalCtx {
  return { store: demo.store, clock, user: demo.user } as unknown as PersonalCtx;
}

/** Four classic games in the demo owner's study collection, with per-ply notes. */
export const seedStudy: DemoSeeder = (demo) => {
  const start = demo.clock.now().getTime();
  DEMO_STUDY_GAMES.forEach((game, i) => {
    // Added over the last month, a week apart, the newest last.
    const at = new Date(start - (DEMO_STUDY_GAMES.length - i) * 7 * 86_400_000);
    uploadStudyGame(demoOwnerCtx(demo, { now: () => at }), demoPgn(game));
  });
  demo.log(`study: ${DEMO_STUDY_GAMES.length} games with notes`);
};

import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, test } from 'vitest';
import { movesKey, START_FEN } from '../../../src/chess/pgn.js';
import { fixedClock } from '../../../src/clock.js';
import type { Analyser } from '../../../src/engine/pool.js';
import { createUser } from '../../../src/services/accounts/accounts.js';
import { ReviewQueue, insertReviewJob } from '../../../src/services/review/queue.js';
import { ownerReview } from '../../../src/services/review/records.js';
import { openStore, storeFile, type Store } from '../../../src/store/db.js';
import { reviewJobs } from '../../../src/store/schema/index.js';
import { makeAnalysis } from '../../helpers/analysis.js';

const clock = fixedClock('2026-11-26T12:00:00Z');
const cleanup: Array<() => unknown> = [];
afterEach(async () => {
  for (const fn of cleanup.splice(0).reverse()) await fn();
});

function tempStore(): Store {
  const dir = mkdtempSync(join(tmpdir(), 'cfp-cross-'));
  const store = openStore(storeFile(dir));
  cleanup.push(() => rmSync(dir, { recursive: true, force: true }), () => store.close());
  return store;
}

const GAME = ['e4', 'e5', 'Nf3', 'Nc6'];
const FRESH = ['d4', 'd5', 'c4', 'e6'];
const analysisOf = (san: string[]) => makeAnalysis({ sanMoves: san, evals: san.map((_, i) => 20 + i).concat(25) });

/** A stand-in engine that records each game it is asked to review (the engine run the asker would wait for). */
function recordingAnalyser(runs: string[]): Analyser {
  return {
    async analyse(_startFen, movesUci) {
      runs.push(movesUci.join(' '));
      const san = [GAME, FRESH].find((m) => analysisOf(m).movesUci.join(' ') === movesUci.join(' '))!;
      return analysisOf(san);
    },
    async close() {},
  };
}

function enqueue(store: Store, userId: string, san: string[], subjectId: string) {
  const a = analysisOf(san);
  return insertReviewJob(store, clock, { userId, subjectKind: 'study', subjectId, movesKey: movesKey(START_FEN, a.movesUci), startFen: START_FEN, movesUci: a.movesUci });
}

describe('engine output never reused across owners (issue 30 item 3)', () => {
  test("B's review of A's game runs the engine like a fresh line, and answers in the same shape", async () => {
    const store = tempStore();
    const a = createUser(store, clock, { displayName: 'A', email: 'a@example.test' });
    const b = createUser(store, clock, { displayName: 'B', email: 'b@example.test' });
    const runs: string[] = [];
    const q = new ReviewQueue(store, clock, () => recordingAnalyser(runs));
    cleanup.push(() => q.stop());

    enqueue(store, a.id, GAME, 'a-game');
    expect(await q.runOnce()).toBe(true);
    enqueue(store, b.id, GAME, 'b-copy');
    expect(await q.runOnce()).toBe(true);
    enqueue(store, b.id, FRESH, 'b-fresh');
    expect(await q.runOnce()).toBe(true);
    // Three jobs, three engine runs: B's copy of A's game cost what B's fresh line cost.
    expect(runs).toEqual([GAME, GAME, FRESH].map((m) => analysisOf(m).movesUci.join(' ')));
    expect(store.db.select().from(reviewJobs).all().map((j) => j.status)).toEqual(['complete', 'complete', 'complete']);

    const key = (m: string[]) => movesKey(START_FEN, analysisOf(m).movesUci);
    const copy = ownerReview(store, b.id, key(GAME))!;
    const fresh = ownerReview(store, b.id, key(FRESH))!;
    expect(Object.keys(copy).sort()).toEqual(Object.keys(fresh).sort());
    expect(Object.keys(copy.derivation).sort()).toEqual(Object.keys(fresh.derivation).sort());
  });

  test('a duplicate job of an owner who already holds the review reuses the stored output (no engine run)', async () => {
    const store = tempStore();
    const a = createUser(store, clock, { displayName: 'A', email: 'a@example.test' });
    const runs: string[] = [];
    const q = new ReviewQueue(store, clock, () => recordingAnalyser(runs));
    cleanup.push(() => q.stop());
    enqueue(store, a.id, GAME, 'first');
    await q.runOnce();
    enqueue(store, a.id, GAME, 'second');
    await q.runOnce();
    expect(runs).toHaveLength(1);
  });
});

import { describe, expect, test } from 'vitest';
import { checkSubmission, type SubmittedEntry } from '../../src/chess/workerAnalysis.js';

const START = 'rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1';
// Fool's mate: the final position is checkmate (White to move, mated).
const MATE = ['f2f3', 'e7e5', 'g2g4', 'd8h4'];
const bounds = { nodesAsked: 100_000, known: new Map() };
const searched = (pv: string, cp = 10): SubmittedEntry => ({ pv, depth: 10, score: { cp }, nodes: 1_000, time: 5 });
// PVs that are legal from each position of the fool's mate (hand-checked: each a legal reply there).
const mateAnswer = (): SubmittedEntry[] => [searched('e2e4'), searched('e7e5'), searched('e2e4'), { pv: 'd8h4', depth: 5, score: { mate: 1 }, nodes: 50, time: 1 }, { depth: 0, score: { mate: 0 } }];

describe('checkSubmission', () => {
  test('a complete answer gives the pool’s positions: lines for searched ones, none for the terminal one', () => {
    const out = checkSubmission(START, MATE, mateAnswer(), bounds);
    expect(out.ok && out.complete).toBe(true);
    if (!out.ok || !out.complete) return;
    expect(out.positions).toHaveLength(5);
    expect(out.positions[3].lines).toEqual([{ multiPv: 1, score: { cp: null, mate: 1 }, pv: ['d8h4'], depth: 5 }]);
    expect(out.positions[4]).toMatchObject({ terminal: 'checkmate', lines: [], depth: 0, nodes: 0 });
  });

  test.each([
    ['a mated position scored as cp', 4, { depth: 0, score: { cp: 0 } }, /analysis\[4\]\.score: the side to move is checkmated/],
    ['a PV from a mated position', 4, { pv: 'e1f2', depth: 0, score: { mate: 0 } }, /analysis\[4\]\.pv: the position has no legal move/],
    ['mate 0 where moves exist', 1, { pv: 'e7e5', depth: 3, score: { mate: 0 } }, /analysis\[1\]\.score: mate 0/],
    ['an illegal second PV move', 0, { pv: 'e2e4 e2e4', depth: 3, score: { cp: 1 } }, /analysis\[0\]\.pv: move 2 \(e2e4\) is not legal/],
    ['a missing PV', 2, { depth: 3, score: { cp: 1 } }, /analysis\[2\]\.pv: missing/],
    ['depth 0 with moves', 2, { pv: 'e2e4', depth: 0, score: { cp: 1 } }, /analysis\[2\]\.depth/],
    ['nodes far past the budget', 2, { pv: 'e2e4', depth: 9, score: { cp: 1 }, nodes: 200_001 }, /analysis\[2\]\.nodes: 200001 is more than 2 × the 100000/],
    ['a skip not asked for', 2, { skipped: true }, /analysis\[2\]: skipped, but position 2 is not in skipPositions/],
  ] as const)('refuses %s', (_what, at, entry, fault) => {
    const entries = mateAnswer();
    entries[at] = entry as SubmittedEntry;
    const out = checkSubmission(START, MATE, entries, bounds);
    expect(out.ok).toBe(false);
    if (!out.ok) expect(out.faults.join('; ')).toMatch(fault);
  });

  test('a position searched slower than any timeout is no reason to refuse (issue 44 item 3: the lease bounds a slow worker)', () => {
    const entries = mateAnswer();
    entries[2] = { pv: 'e2e4', depth: 9, score: { cp: 1 }, nodes: 1_000, time: 3_600_000 };
    const out = checkSubmission(START, MATE, entries, bounds);
    expect(out.ok && out.complete).toBe(true);
  });

  test('a stalemated position is cp 0 without a PV', () => {
    // Black to move, stalemated: king a8, White queen b6, White king c6... reached from this start by one move.
    const fen = 'k7/8/2K5/1Q6/8/8/8/8 w - - 0 1';
    const ok = checkSubmission(fen, ['b5b6'], [searched('b5b6', 2000), { depth: 0, score: { cp: 0 } }], bounds);
    expect(ok.ok && ok.complete && ok.positions[1].terminal).toBe('stalemate');
    const bad = checkSubmission(fen, ['b5b6'], [searched('b5b6', 2000), { depth: 0, score: { mate: 0 } }], bounds);
    expect(bad.ok).toBe(false);
  });

  test('one entry per position; a progress report answers how many are done', () => {
    expect(checkSubmission(START, MATE, mateAnswer().slice(1), bounds)).toEqual({ ok: false, faults: ['analysis has 4 entries; this job has 5 positions (one per move, plus the start)'] });
    const progress = mateAnswer().map((e, i) => (i < 3 ? null : e));
    expect(checkSubmission(START, MATE, progress, bounds)).toEqual({ ok: true, complete: false, done: 2 });
  });
});

import { existsSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { NoLegalPairingError, pairNextRound, type Pairing } from '../../../src/chess/pairing/index.js';
import { runAll, CASES_DIR } from '../../bench/pairing.js';
import { tournament } from './build.js';

const pairsOf = (p: Pairing) => p.boards.map((b) => [b.white, b.black].sort((x, y) => x - y).join('-')).sort();

describe('Dutch pairing engine', () => {
  it('never repeats a played game: the leader drops to the only opponent left', () => {
    // R1 1-3 (1 wins), 2-4 (2 wins); R2 1-2 (1 wins), 3-4 (3 wins). Scores 1:2, 2:1, 3:1, 4:0.
    // 1 has met 2 and 3, so 1-4; then 2-3, who have not met.
    const s = tournament(5, [['3w1', '2b1'], ['4b1', '1w0'], ['1b0', '4w1'], ['2w0', '3b0']]);
    expect(pairsOf(pairNextRound(s))).toEqual(['1-4', '2-3']);
  });

  it('a forfeited game is not a game: the pair may meet again', () => {
    // R1 1-2 forfeited (2 did not appear), 3-4 drawn. 1 has 1 point, alone on top, and may meet 2 again.
    const s = tournament(5, [['2w+'], ['1b-'], ['4w='], ['3b=']]);
    const p = pairNextRound(s);
    expect(pairsOf(p)).toHaveLength(2);
    for (const pair of pairsOf(p)) expect(['3-4']).not.toContain(pair);
  });

  it('gives the bye to the lowest player of the lowest score group', () => {
    const p = pairNextRound(tournament(5, [[], [], [], [], []]));
    // 5 players: S1 = {1, 2}, S2 = {3, 4}, No. 5 left over.
    expect(pairsOf(p)).toEqual(['1-3', '2-4']);
    expect(p.byes).toEqual([5]);
  });

  it('gives at most one pairing-allocated bye per player', () => {
    // R1 1-2 (2 wins), 3 PAB; R2 2-3 drawn, 1 PAB. Scores 2:1.5, 3:1.5, 1:1.
    // 2-3 is a rematch and 1 and 3 have had the bye, so the only legal round is 1-3 with the bye to 2.
    const s = tournament(5, [['2w0', 'U'], ['1b1', '3w='], ['U', '2b=']]);
    const p = pairNextRound(s);
    expect(pairsOf(p)).toEqual(['1-3']);
    expect(p.byes).toEqual([2]);
  });

  it('leaves out players known to be absent', () => {
    const p = pairNextRound(tournament(5, [[], [], [], [], []], { absent: [3] }));
    expect(pairsOf(p)).toEqual(['1-4', '2-5']);
    expect(p.byes).toEqual([]);
  });

  it('lets last-round topscorers with the same absolute colour preference meet (C.3), but no one else', () => {
    // R1 1-3, 2-4, 5-6 (draw); R2 1-4, 2-3, 6-5 (draw). Nos. 1 and 2 won twice with White: 2 points each and an
    // absolute Black preference; Nos. 3 and 4 lost twice with Black (absolute White); 5 and 6 have 1 point.
    const rows = [['3w1', '4w1'], ['4w1', '3w1'], ['1b0', '2b0'], ['2b0', '1b0'], ['6w=', '6b='], ['5b=', '5w=']];
    // Last round: 1 and 2 are topscorers (2 > 2 rounds / 2), so they meet; E.4 gives the higher-ranked No. 1
    // Black. 5-6 is a rematch, so both drop to 3 and 4: 5 (mild White) meets 3 (absolute White, gets it),
    // 6 (mild Black) meets 4. Boards: the 2-point pair, then by the higher-ranked player (5 before 6).
    expect(pairNextRound(tournament(3, rows)).boards).toEqual([
      { board: 1, white: 2, black: 1 },
      { board: 2, white: 3, black: 5 },
      { board: 3, white: 4, black: 6 },
    ]);
    // Not the last round: 1-2 and 3-4 would each join two equal absolute preferences, and 1 and 2 have met
    // both 3 and 4, so no legal pairing exists.
    expect(() => pairNextRound(tournament(4, rows))).toThrow(NoLegalPairingError);
  });

  it('rejects a state whose games are not recorded for both players', () => {
    expect(() => pairNextRound(tournament(3, [['2w1'], ['3b0'], ['2w1'], ['U']]))).toThrow(/not recorded for both/);
  });

  it('throws NoLegalPairingError when every pairing would be a rematch, or the event is over', () => {
    expect(() => pairNextRound(tournament(3, [['2w1'], ['1b0']]))).toThrow(NoLegalPairingError);
    expect(() => pairNextRound(tournament(1, [['2w1'], ['1b0']]))).toThrow(NoLegalPairingError);
    expect(() => pairNextRound(tournament(3, [[]]))).toThrow(NoLegalPairingError);
  });
});

describe.skipIf(!existsSync(CASES_DIR))('agreement with the reference cases (bbpPairings 6.0.0, FIDE C.04.3 2025)', () => {
  it('matches every one of the 120 cases exactly (pairs, boards, colours, bye), with no pairing failures', () => {
    const all = runAll();
    expect(all).toHaveLength(120);
    expect(all.filter((o) => o.error)).toEqual([]);
    expect(all.filter((o) => !o.wholeRound).map((o) => o.id)).toEqual([]);
  }, 300_000);
});

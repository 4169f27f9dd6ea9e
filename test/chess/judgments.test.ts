import { readFileSync } from 'node:fs';
import { describe, expect, test } from 'vitest';
import { gameAcpl, gameJudgments, judgePly, type Judgment, type LichessEval } from '../../src/chess/index.js';

// Expected values worked from lila modules/tree/src/main/Advice.scala and scalachess WinPercent.winningChances:
// wc(cp) = 2 / (1 + e^(−0.00368208·cp)) − 1 on raw centipawns; the mover's drop judged 0.3 / 0.2 / 0.1.
// wc(−54) = −0.09909, wc(−55) = −0.10091, wc(−110) = −0.19979, wc(−111) = −0.20156, wc(−168) = −0.29980,
// wc(−169) = −0.30147, wc(15) = 0.02760, wc(−154) = −0.27616, wc(700) = 0.85879, wc(1000) = 0.95090, wc(1200) = 0.97619.
type Row = [string, LichessEval, LichessEval, 'white' | 'black', Judgment | null];

describe('CpAdvice: winning-chance drops on raw centipawns', () => {
  test.each<Row>([
    ['0 → −0.54: drop 0.0991, below 0.1', { eval: 0 }, { eval: -54 }, 'white', null],
    ['0 → −0.55: drop 0.1009', { eval: 0 }, { eval: -55 }, 'white', 'Inaccuracy'],
    ['0 → −1.10: drop 0.1998', { eval: 0 }, { eval: -110 }, 'white', 'Inaccuracy'],
    ['0 → −1.11: drop 0.2016', { eval: 0 }, { eval: -111 }, 'white', 'Mistake'],
    ['0 → −1.68: drop 0.2998', { eval: 0 }, { eval: -168 }, 'white', 'Mistake'],
    ['0 → −1.69: drop 0.3015', { eval: 0 }, { eval: -169 }, 'white', 'Blunder'],
    ['Black to move, 0 → +1.69 (White\'s view): Black dropped 0.3015', { eval: 0 }, { eval: 169 }, 'black', 'Blunder'],
    ['Black to move, 0 → −1.69: a gain for Black', { eval: 0 }, { eval: -169 }, 'black', null],
    ['a gain is never judged', { eval: 0 }, { eval: 300 }, 'white', null],
    // Unceiled: 0.97619 − 0.85879 = 0.1174. Capped at ±1000 it would be 0.95090 − 0.85879 = 0.0921, no judgment.
    ['+12.00 → +7.00: judged on raw centipawns, not capped at ±10', { eval: 1200 }, { eval: 700 }, 'white', 'Inaccuracy'],
    ['+10.00 → +7.00: drop 0.0921', { eval: 1000 }, { eval: 700 }, 'white', null],
    ['a missing evaluation is not judged', {}, { eval: -500 }, 'white', null],
  ])('%s', (_, before, after, mover, expected) => {
    expect(judgePly(before, after, mover)).toBe(expected);
  });
});

describe('MateAdvice: mate created, mate lost, mate delayed', () => {
  test.each<Row>([
    // Mate created: the mover stood on centipawns and is now being mated.
    ['+5.00 → mated in 2 (the issue\'s "mistake"): mate created from ≥ −7.00', { eval: 500 }, { mate: -2 }, 'white', 'Blunder'],
    ['−7.00 → mated in 3: not below −700', { eval: -700 }, { mate: -3 }, 'white', 'Blunder'],
    ['−7.16 → mated in 1 (the issue\'s "best"): below −700', { eval: -716 }, { mate: -1 }, 'white', 'Mistake'],
    ['−9.99 → mated: not below −999', { eval: -999 }, { mate: -4 }, 'white', 'Mistake'],
    ['−10.00 → mated: below −999', { eval: -1000 }, { mate: -4 }, 'white', 'Inaccuracy'],
    ['Black: −3.00 (Black +3) → White mates in 2', { eval: -300 }, { mate: 2 }, 'black', 'Blunder'],
    ['Black: +8.00 (Black −8) → White mates in 5', { eval: 800 }, { mate: 5 }, 'black', 'Mistake'],
    // Mate lost: the mover had a forced mate and now has centipawns (or is being mated).
    ['mate in 2 → +6.10 (the issue\'s "inaccuracy"): kept ≤ +7.00', { mate: 2 }, { eval: 610 }, 'white', 'Blunder'],
    ['mate in 2 → +7.00: not above 700', { mate: 2 }, { eval: 700 }, 'white', 'Blunder'],
    ['mate in 2 → +7.01', { mate: 2 }, { eval: 701 }, 'white', 'Mistake'],
    ['mate in 2 → +9.99: not above 999', { mate: 2 }, { eval: 999 }, 'white', 'Mistake'],
    ['mate in 2 → +10.00', { mate: 2 }, { eval: 1000 }, 'white', 'Inaccuracy'],
    ['mate in 3 → mated in 4: counted as 0 cp kept', { mate: 3 }, { mate: -4 }, 'white', 'Blunder'],
    ['Black: Black mates in 3 → −4.00 (Black +4)', { mate: -3 }, { eval: -400 }, 'black', 'Blunder'],
    ['Black: Black mates in 3 → −8.00 (Black +8)', { mate: -3 }, { eval: -800 }, 'black', 'Mistake'],
    // Never judged.
    ['mate delayed: mate in 2 → mate in 5', { mate: 2 }, { mate: 5 }, 'white', null],
    ['finding a mate: +3.00 → mate in 4', { eval: 300 }, { mate: 4 }, 'white', null],
    ['already being mated: mated in 3 → mated in 1', { mate: -3 }, { mate: -1 }, 'white', null],
    ['already being mated: mated in 3 → −8.00', { mate: -3 }, { eval: -800 }, 'white', null],
  ])('%s', (_, before, after, mover, expected) => {
    expect(judgePly(before, after, mover)).toBe(expected);
  });
});

describe('gameJudgments over an export array', () => {
  test('the first ply is measured from lichess\'s 15 cp: 15 → −1.54 drops 0.3038 (from 0 it would be 0.2762)', () => {
    expect(gameJudgments([{ eval: -154 }])).toEqual(['Blunder']);
    expect(gameJudgments([{ eval: -154 }], { initial: { eval: 0 } })).toEqual(['Mistake']);
  });

  test('plies alternate from the starting side; an empty entry leaves its ply and the next unjudged', () => {
    // White 15 → 0 (drop 0.028), Black 0 → +1.69 (Blunder), White +1.69 → nothing, Black nothing → +3.00.
    expect(gameJudgments([{ eval: 0 }, { eval: 169 }, {}, { eval: 300 }])).toEqual([null, 'Blunder', null, null]);
    // Black moved first: 15 → +1.90 is Black's drop wc(190) − wc(15) = 0.33618 − 0.02760 = 0.3086: a Blunder.
    expect(gameJudgments([{ eval: 190 }], { startColour: 'black' })).toEqual(['Blunder']);
    expect(gameJudgments([{ eval: 190 }])).toEqual([null]);
  });

  test("the engine's first choice is never judged", () => {
    const evals: LichessEval[] = [{ eval: 20 }, { eval: 500 }, { eval: 480 }];
    expect(gameJudgments(evals)).toEqual([null, 'Blunder', null]);
    expect(gameJudgments(evals, { isFirstChoice: (i) => i === 1 })).toEqual([null, null, null]);
  });
});

// The lichess export fixture test/fixtures/sources/lichess/games_user_export.ndjson (source note in the project's API
// notes, SOURCES-API.md, fixtures table: GET /api/games/user/RookRanger42?…&evals=true&accuracy=true, NDJSON). Its game
// Xm8dPq2L carries `analysis` with lichess's judgments, and each player's published acpl and judgment counts.
describe('against a lichess export', () => {
  const game = readFileSync(new URL('../fixtures/sources/lichess/games_user_export.ndjson', import.meta.url), 'utf8')
    .trim()
    .split('\n')
    .map((l) => JSON.parse(l))
    .find((g) => g.id === 'Xm8dPq2L');
  const analysis = game.analysis as Array<LichessEval & { judgment?: { name: Judgment } }>;

  test('judgments agree ply by ply', () => {
    const ours = gameJudgments(analysis, { isFirstChoice: (i) => analysis[i].best === undefined });
    expect(ours).toEqual(analysis.map((a) => a.judgment?.name ?? null));
    expect(ours.filter(Boolean)).toEqual(['Blunder']);
  });

  test('per-side counts equal the players\' published inaccuracy / mistake / blunder', () => {
    const ours = gameJudgments(analysis, { isFirstChoice: (i) => analysis[i].best === undefined });
    for (const [side, parity] of [['white', 0], ['black', 1]] as const) {
      const mine = ours.filter((_, i) => i % 2 === parity);
      const published = game.players[side].analysis;
      expect({ inaccuracy: mine.filter((j) => j === 'Inaccuracy').length, mistake: mine.filter((j) => j === 'Mistake').length, blunder: mine.filter((j) => j === 'Blunder').length }).toEqual({
        inaccuracy: published.inaccuracy,
        mistake: published.mistake,
        blunder: published.blunder,
      });
    }
  });

  test('acpl equals the published figures (White 36, Black 6)', () => {
    expect(gameAcpl(analysis)).toEqual({ white: game.players.white.analysis.acpl, black: game.players.black.analysis.acpl });
    expect(gameAcpl(analysis)).toEqual({ white: 36, black: 6 });
  });
});

describe('gameAcpl (lila AccuracyCP.diffsList)', () => {
  test('drops capped at ±1000, a mate counting as the cap, never negative, rounded mean', () => {
    // White: 15 → −985 = 1000 (cap −1000); after Black's move, −985 → mated in 2 = −1000 cap: 15. Mean 507.5 → 508.
    // Black: −985 → −985 = 0; the last pair (−1000 → …) has no second half. Mean 0.
    expect(gameAcpl([{ eval: -985 }, { eval: -985 }, { mate: -2 }])).toEqual({ white: 508, black: 0 });
    // +20 → +3000 is a gain (capped: 20 → 1000); Black +3000 → 0 gains; White 0 → −50 loses 50: mean (0 + 50) / 2 = 25.
    expect(gameAcpl([{ eval: 3000 }, { eval: 0 }, { eval: -50 }])).toEqual({ white: 25, black: 0 });
  });

  test('a move with a missing evaluation is skipped; a side with none is null', () => {
    // White 15 → 10 = 5; Black's move has no evaluation after it; White's second move none before it. Black: none.
    expect(gameAcpl([{ eval: 10 }, {}, { eval: 0 }])).toEqual({ white: 5, black: null });
  });
});

import { readFileSync } from 'node:fs';
import { describe, expect, test } from 'vitest';
import { gameAcpl } from '../../../src/chess/judgments.js';
import { analysisAccuracy, analysisEvals } from '../../../src/chess/reviewAccuracy.js';
import { deriveAll } from '../../../src/services/review/derive.js';
import { parseLichessGame } from '../../../src/sources/lichess/parse.js';
import type { SourceRecord } from '../../../src/sources/types.js';

// 40 real lichess exports with lichess's server analysis (test/fixtures/sources/lichess-analysed/README.md).
// The expected figures are lichess's own: each ply's `judgment`, and `players.*.analysis.{acpl, accuracy}`.
const GAMES = readFileSync(new URL('../../fixtures/sources/lichess-analysed/games.ndjson', import.meta.url), 'utf8')
  .split('\n')
  .filter((l) => l.trim())
  .map((l) => JSON.parse(l));
const OWNER = 'megaloblasto';

function imported(g: unknown) {
  const rec = parseLichessGame(g, OWNER) as SourceRecord;
  expect(rec.review).toBeTruthy();
  return rec.review!;
}

// Deriving 40 games is the slow part: once per game for the whole file.
const derived = new Map<string, ReturnType<typeof deriveAll>>();
const derive = (g: { id: string }) => derived.get(g.id) ?? derived.set(g.id, deriveAll(imported(g))).get(g.id)!;

describe("lichess's own review, from the export's analysis", { timeout: 180_000 }, () => {
  test('every ply carries lichess\'s judgment; ACPL and accuracy are lichess\'s published figures (all 40 games, both sides)', () => {
    let plies = 0;
    for (const g of GAMES) {
      const review = imported(g);
      const { derivation, view } = derive(g);
      const lichess = view.plies.map((_, i) => g.analysis[i]?.judgment?.name.toLowerCase() ?? null);
      expect(view.plies.map((p) => p.ply.judgment), g.id).toEqual(lichess);
      expect(derivation.plies.map((p) => p.judgment)).toEqual(lichess);
      // The class says the same severity, except a miss, whose severity the judgment now carries.
      for (const p of view.plies) {
        if (p.ply.judgment && p.ply.classification !== 'miss') expect(p.ply.classification).toBe(p.ply.judgment);
        if (p.ply.classification === 'miss') expect(['mistake', 'blunder']).toContain(p.ply.judgment);
        if (!p.ply.judgment) expect(['inaccuracy', 'mistake', 'blunder', 'miss']).not.toContain(p.ply.classification);
      }
      const acpl = gameAcpl(analysisEvals(review));
      const acc = analysisAccuracy(review);
      for (const side of ['white', 'black'] as const) {
        expect(acpl[side], `${g.id} ${side} acpl`).toBe(g.players[side].analysis.acpl);
        expect(Math.round(acc[side]), `${g.id} ${side} accuracy`).toBe(g.players[side].analysis.accuracy);
        // The figure shown is lichess's published one (issue 37, item 8), not a one-decimal recomputation.
        expect(side === 'white' ? derivation.accuracyWhite : derivation.accuracyBlack, `${g.id} ${side} shown`).toBe(g.players[side].analysis.accuracy);
        expect(review.source!.accuracy![side]).toBe(g.players[side].analysis.accuracy);
      }
      plies += view.plies.length;
    }
    expect(plies).toBe(2643); // 2,623 evaluated plies plus the 20 mating plies lichess leaves unevaluated
  });

  test('an import stored before the published figure was kept shows lichess\'s rounding of its method (10 games, 20 players)', () => {
    for (const g of GAMES.slice(0, 10)) {
      const review = imported(g);
      delete review.source!.accuracy;
      const { derivation } = deriveAll(review);
      expect([derivation.accuracyWhite, derivation.accuracyBlack], g.id).toEqual([g.players.white.analysis.accuracy, g.players.black.analysis.accuracy]);
    }
  });

  test("lichess's best move and line where it gives them; no second line, so never `great`", () => {
    const g = GAMES.find((x) => x.id === 'qcnQ0NVw')!;
    const review = imported(g);
    expect(review.engine).toEqual({ name: 'lichess', version: 'server analysis' });
    expect(review.source).toMatchObject({ name: 'lichess', gameId: 'qcnQ0NVw' });
    const { view } = derive(g);
    // Ply 15 (8.Ng5): lichess judged it a Blunder, "a4 was best", line "a4 Nge7"; evaluation −419 after it.
    const p15 = view.plies[14].ply;
    expect(p15.playedMove.san).toBe('Ng5');
    expect(p15.judgment).toBe('blunder');
    expect(p15.bestMove).toEqual({ san: 'a4', uci: 'a2a4' });
    expect(p15.principalVariation).toEqual(['a4', 'Nge7']);
    expect(p15.evalAfter).toMatchObject({ type: 'cp', value: 419 }); // Black to move: +419 for Black
    // Ply 14, not judged: lichess gives no best move there.
    expect(view.plies[13].ply.bestMove).toBeNull();
    expect(view.alternatives).toBe(false);
    expect(view.source).toBe('lichess');
    for (const x of GAMES) for (const p of derive(x).view.plies) expect(p.ply.classification).not.toBe('great');
  });

  test("lichess's castling form of `best` (the king onto its rook, e1h1) is read as the castling it is (issue 44 item 8)", () => {
    // In these exports lichess writes a suggested castling as lila's Uci does: king square then rook square.
    let seen = 0;
    for (const g of GAMES) {
      const i = (g.analysis as Array<{ best?: string }>).findIndex((e) => e?.best === 'e1h1' || e?.best === 'e8h8' || e?.best === 'e8a8' || e?.best === 'e1a1');
      if (i < 0) continue;
      const review = imported(g);
      const line = review.positions[i].lines[0];
      const castled = { e1h1: 'e1g1', e1a1: 'e1c1', e8h8: 'e8g8', e8a8: 'e8c8' }[g.analysis[i].best as string];
      expect(line.pv[0], g.id).toBe(castled);
      // The variation replays from it now, so the line is lichess's whole variation, not the move alone.
      expect(line.pv.length, g.id).toBe(g.analysis[i].variation.split(' ').length);
      seen += 1;
    }
    expect(seen).toBeGreaterThanOrEqual(3);
  });

  test('a game lost to mate: the mating ply is terminal and unjudged, as on lichess', () => {
    const g = GAMES.find((x) => x.status === 'mate')!;
    const review = imported(g);
    const n = review.movesUci.length;
    expect(g.analysis.length).toBe(n - 1);
    expect(review.positions[n]).toMatchObject({ terminal: 'checkmate', lines: [] });
    expect(review.source!.judgments[n - 1]).toBeNull();
  });

  test('an analysis that does not cover the moves is not taken as a review', () => {
    const g = structuredClone(GAMES[0]);
    g.analysis.pop();
    expect((parseLichessGame(g, OWNER) as SourceRecord).review).toBeNull();
    delete g.analysis;
    expect((parseLichessGame(g, OWNER) as SourceRecord).review).toBeFalsy();
  });
});

import { describe, expect, it } from 'vitest';
import { classifyOpening, classifyReplayed, OPENING_PLIES } from '../../src/chess/openings.js';
import { parsePgn, parsePgnMainline, PgnError } from '../../src/chess/pgn.js';

const PHILIDOR = `[Event "Rated rapid game"]
[White "RookRanger42"]
[Black "TempoThief"]
[Result "1-0"]

1. e4 { [%clk 0:15:00] } 1... e5 { [%clk 0:15:00] } 2. Nf3 { [%clk 0:14:55] } 2... d6 { a quiet move [%clk 0:14:54] } 3. Bc4 Bg4 4. Nc3 g6 5. Nxe5 Bxd1 6. Bxf7+ Ke7 7. Nd5# 1-0`;

describe('parsePgnMainline', () => {
  it('gives parsePgn’s headers, plies and result, with positions only for the plies asked', () => {
    const full = parsePgn(PHILIDOR);
    const lite = parsePgnMainline(PHILIDOR, { fenPlies: 4 });
    expect(lite.headers).toEqual(full.headers);
    expect(lite.result).toBe('1-0');
    expect(lite.plies).toEqual(full.plies.map(({ fenBefore: _b, fenAfter: _a, ...p }) => p));
    expect(lite.plies.map((p) => p.san).join(' ')).toBe('e4 e5 Nf3 d6 Bc4 Bg4 Nc3 g6 Nxe5 Bxd1 Bxf7+ Ke7 Nd5#');
    expect(lite.plies[3]).toEqual({ ply: 4, san: 'd6', uci: 'd7d6', comment: 'a quiet move', clockSeconds: 894 });
    expect(lite.fensAfter).toEqual(full.plies.slice(0, 4).map((p) => p.fenAfter));
    expect(lite.fensAfter[3]).toBe('rnbqkbnr/ppp2ppp/3p4/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R w KQkq - 0 3');
    expect(parsePgnMainline(PHILIDOR).fensAfter).toEqual([]);
  });

  it('refuses what parsePgn refuses, with the same reason', () => {
    for (const bad of ['1. e4 e5 2. Ke3', '1. e4 -- 2. d4', '1. e4 { open', '']) {
      let want: unknown = null;
      let got: unknown = null;
      try {
        parsePgn(bad);
      } catch (e) {
        want = [(e as PgnError).reason, (e as Error).message];
      }
      try {
        parsePgnMainline(bad);
      } catch (e) {
        got = [(e as PgnError).reason, (e as Error).message];
      }
      expect(want).not.toBeNull();
      expect(got).toEqual(want);
    }
  });
});

describe('classifyReplayed', () => {
  it('names the opening from the replay’s positions as classifyOpening does from the moves', () => {
    const lite = parsePgnMainline(PHILIDOR, { fenPlies: OPENING_PLIES });
    const named = classifyReplayed(lite);
    expect(named).toEqual({ eco: 'C41', name: 'Philidor Defense', moves: ['e4', 'e5', 'Nf3', 'd6', 'Bc4'], matchedPlies: 5 });
    expect(named).toEqual(classifyOpening(lite.plies.map((p) => p.san)));
    // Reached by transposition (1. c4 e6 2. Nc3 Nf6 3. d4 Bb4): named by position, E20.
    const nimzo = parsePgnMainline('1. c4 e6 2. Nc3 Nf6 3. d4 Bb4 *', { fenPlies: OPENING_PLIES });
    expect(classifyReplayed(nimzo)?.eco).toBe('E20');
    expect(classifyReplayed(nimzo)).toEqual(classifyOpening(nimzo.plies.map((p) => p.san)));
  });

  it('leaves a game from another start, or without its positions, to classifyOpening', () => {
    const fromFen = parsePgnMainline('[FEN "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1"]\n\n1... e5 2. Nf3 d6 *', { fenPlies: OPENING_PLIES });
    // classifyOpening walks the SAN from the standard start: "e5" is not legal there, so nothing is named.
    expect(classifyReplayed(fromFen)).toBeNull();
    expect(classifyOpening(fromFen.plies.map((p) => p.san))).toBeNull();
    const noPositions = parsePgnMainline(PHILIDOR);
    expect(classifyReplayed(noPositions)?.name).toBe('Philidor Defense');
  });
});

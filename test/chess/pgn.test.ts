import { describe, expect, test } from 'vitest';
import { readFileSync } from 'node:fs';
import { fullMoves, movesKey, parsePgn, PgnError, pgnTag, splitPgnGames } from '../../src/chess/pgn.js';
import { dataPath, fixturePath } from '../helpers/fixtures.js';

describe('parsePgn', () => {
  test('mainline, comments, clocks; variations and NAGs skipped', () => {
    const g = parsePgn(
      '[Event "t"]\n[White "A"]\n[Black "B"]\n[Result "1-0"]\n\n{pre} 1. e4 {best by test [%clk 0:02:59.5]} e5 $1 (1... c5 2. Nf3) 2. Nf3!? {[%clk 0:02:58]} Nc6 1-0',
    );
    expect(g.headers.White).toBe('A');
    expect(g.plies.map((p) => p.san)).toEqual(['e4', 'e5', 'Nf3', 'Nc6']);
    expect(g.plies.map((p) => p.uci)).toEqual(['e2e4', 'e7e5', 'g1f3', 'b8c6']);
    expect(g.plies[0].comment).toBe('best by test');
    expect(g.plies[0].clockSeconds).toBe(179.5);
    expect(g.plies[2].clockSeconds).toBe(178);
    expect(g.plies[2].comment).toBeNull();
    expect(g.preface).toBe('pre');
    expect(g.result).toBe('1-0');
  });

  test.each([
    ['', 'empty'],
    ['[Event "a"]\n\n1. e4 *\n\n[Event "b"]\n\n1. d4 *', 'multi-game'],
    ['[Event "a"]\n\n*', 'moveless'],
    ['1. e4 e5 2. Ke3 *', 'illegal-move'],
    ['1. e4 {never closed', 'unparseable'],
    ['[Variant "Atomic"]\n\n1. e4 *', 'unsupported'],
  ])('refuses %j as %s', (text, reason) => {
    try {
      parsePgn(text);
      expect.unreachable();
    } catch (e) {
      expect(e).toBeInstanceOf(PgnError);
      expect((e as PgnError).reason).toBe(reason);
    }
  });

  test.each([
    // White's 2nd move, Black's 2nd move, and Black's 18th from a FEN where Black is to move (move numbers from the FEN).
    ['1. e4 e5 2. Ke3 *', '2.Ke3 is not legal in that position'],
    ['1. e4 e5 2. Nf3 Ke7 3. d4 Kd5 *', '3…Kd5 is not legal in that position'],
    ['[FEN "r1bqkbnr/pppppppp/2n5/8/8/5N2/PPPPPPPP/RNBQKB1R b KQkq - 3 18"]\n\n18... f6 19. e4 Ke7 *', '19…Ke7 is not legal in that position'],
    ['[FEN "r1bqkbnr/pppppppp/2n5/8/8/5N2/PPPPPPPP/RNBQKB1R b KQkq - 3 18"]\n\n18... Nb4 19. a3 f5 20. axb4 Qxb4 *', '20…Qxb4 is not legal in that position'],
    ['1. e4 -- *', '1…-- is a null move, which a game cannot contain'],
  ])('names the offending move of %j as a player reads it: %s', (text, message) => {
    expect(() => parsePgn(text)).toThrow(message);
  });

  test('a classic game from the library replays to its last move', () => {
    // The Opera game, Paris 1858: 17 moves, ends 17.Rd8#.
    const text = readFileSync(dataPath('library/morphy-brunswick-isouard-1858/game.pgn'), 'utf8');
    const g = parsePgn(text);
    expect(fullMoves(g.plies.length)).toBe(17);
    expect(g.plies.at(-1)!.san).toBe('Rd8#');
  });
});

describe('splitPgnGames and movesKey', () => {
  test('splits on a header block after movetext, not inside comments', () => {
    const games = splitPgnGames('[Event "a"]\n\n1. e4 {x\n[Event "not a header"]} *\n\n[Event "b"]\n\n1. d4 *\n');
    expect(games).toHaveLength(2);
    expect(games[1]).toContain('1. d4');
  });

  test('same moves, different headers and comments: same key', () => {
    const a = parsePgn('[White "x"]\n\n1. e4 {hi} e5 *');
    const b = parsePgn('[White "y"]\n\n1. e4 e5 {[%clk 0:01:00]} 1-0');
    expect(movesKey(a.startFen, a.plies.map((p) => p.uci))).toBe(movesKey(b.startFen, b.plies.map((p) => p.uci)));
    expect(fullMoves(3)).toBe(2);
  });
});

describe('pgnTag', () => {
  test('reads a tag pair of the tag section as parsePgn does: escapes undone, movetext and comments never read', () => {
    // lichess writes "Time forfeit" and "Normal" (the export fixture); escapes per PGN standard 8.1.
    const pgn = '\uFEFF[Event "Rated blitz"]\n[Termination "Time forfeit"]\n[Annotator "A \\"quoted\\" name"]\n\n1. e4 { [Termination "not a tag"] } e5 1-0\n';
    expect(pgnTag(pgn, 'Termination')).toBe('Time forfeit');
    expect(pgnTag(pgn, 'Annotator')).toBe('A "quoted" name');
    expect(pgnTag(pgn, 'Annotator')).toBe(parsePgn(pgn).headers.Annotator);
    expect(pgnTag('[Event "x"]\n\n1. e4 { [Termination "Normal"] } *', 'Termination')).toBeNull();
    expect(pgnTag('1. e4 e5 *', 'Termination')).toBeNull();
    for (const game of splitPgnGames(readFileSync(fixturePath('sources/lichess/games_user_export.pgn'), 'utf8'))) {
      expect(pgnTag(game, 'Termination')).toBe(parsePgn(game).headers.Termination ?? null);
    }
  });
});

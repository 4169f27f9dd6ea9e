import { describe, expect, test } from 'vitest';
import { PgnError } from '../../src/chess/pgn.js';
import { MAX_LINE_PLIES, MAX_VARIATION_DEPTH, positionKey, repertoireFromLines, repertoireFromPgn, walkRepertoire } from '../../src/chess/repertoire.js';

const START = 'rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq';

describe('a repertoire from a PGN with variations', () => {
  test('nested variations, comments, NAGs and several games make one book of positions', () => {
    const book = repertoireFromPgn(
      '[Event "A"]\n\n1. d4 {main} d5 (1... Nf6 2. c4 e6 (2... g6 3. Nc3!) 3. Nf3) 2. c4 $1 *\n\n[Event "B"]\n\n1. e4 e5 *\n',
    );
    // start, d4, d4 d5, d4 d5 c4, d4 Nf6, +c4, +e6, +Nf3, d4 Nf6 c4 g6, +Nc3, e4, e4 e5 = 12.
    expect(Object.keys(book.positions)).toHaveLength(12);
    expect(book.lines).toBe(4);
    expect(book.maxPly).toBe(5);
    expect(Object.keys(book.positions[START].moves)).toEqual(['d4', 'e4']);
    expect(book.positions[START].ply).toBe(0);
  });

  test.each([
    ['1. e4 e5 2. Ke3 *', /Ke3 at ply 3 is not legal/],
    ['1. e4 (e5) *', /e5 at ply 1 is not legal/],
    ['( 1. e4 ) *', /variation opens before any move/],
    ['1. e4 e5 (1... c5 *', /never closed/],
    ['[FEN "8/8/8/8/8/8/8/K6k w - - 0 1"]\n\n1. Kb1 *', /initial position/],
    ['*', /no moves/],
  ])('%s is refused', (pgn, message) => {
    expect(() => repertoireFromPgn(pgn)).toThrow(PgnError);
    expect(() => repertoireFromPgn(pgn)).toThrow(message);
  });

  test('lines typed in are each their own line from move 1', () => {
    const book = repertoireFromLines(['e4 e5', '1. d4 d5']);
    expect(Object.keys(book.positions[START].moves)).toEqual(['e4', 'd4']);
    expect(book.lines).toBe(2);
  });
});

describe('a repertoire stays a person\'s lines (issue 44, item 12)', () => {
  const shuffle = (plies: number) => Array.from({ length: plies }, (_, i) => ['Nf3', 'Nf6', 'Ng1', 'Ng8'][i % 4]).join(' ');

  test('a knight cycle is one line of four positions, three plies deep: not 0 lines at ply 68,147', () => {
    // 1.Nf3 Nf6 2.Ng1 Ng8 comes back to the start: positions start, Nf3, Nf3 Nf6, Ng1 (plies 0–3), however often repeated.
    for (const plies of [4, 40, 950]) {
      const book = repertoireFromLines([shuffle(plies)]);
      expect(Object.keys(book.positions)).toHaveLength(4);
      expect([book.lines, book.maxPly], `${plies} plies`).toEqual([1, 3]);
    }
    // Three plies of it end in a leaf (the g1 knight home, Black's knight out): one line, as before.
    expect(repertoireFromLines([shuffle(3)])).toMatchObject({ lines: 1, maxPly: 3 });
    // Beside an ordinary line: its leaf, and the cycle.
    expect(repertoireFromLines([shuffle(8), 'e4 e5 Nf3'])).toMatchObject({ lines: 2, maxPly: 3 });
    // A line ending where another continues is that line.
    expect(repertoireFromLines(['e4 e5', 'e4 e5 Nf3 Nc6'])).toMatchObject({ lines: 1, maxPly: 4 });
  });

  test(`a line past ${MAX_LINE_PLIES} plies, or variations nested past ${MAX_VARIATION_DEPTH}, is refused`, () => {
    expect(() => repertoireFromLines([shuffle(68_147)])).toThrow(new RegExp(`at most ${MAX_LINE_PLIES} plies`));
    expect(repertoireFromLines([shuffle(MAX_LINE_PLIES)]).lines).toBe(1);
    // 1. e4 (1. d4 (1. c4 (…))): each variation inside the last.
    const nested = (depth: number) => `1. e4 ${Array.from({ length: depth }, (_, i) => `(1. ${['d4', 'c4', 'Nf3', 'g3'][i % 4]} `).join('')}${')'.repeat(depth)} *`;
    expect(repertoireFromPgn(nested(MAX_VARIATION_DEPTH)).lines).toBe(5);
    expect(() => repertoireFromPgn(nested(MAX_VARIATION_DEPTH + 1))).toThrow(PgnError);
    expect(() => repertoireFromPgn(nested(60_000))).toThrow(new RegExp(`nest at most ${MAX_VARIATION_DEPTH} deep`));
  });
});

describe('walking a game against the book', () => {
  const book = repertoireFromPgn('1. e4 e5 (1... c5 2. Nf3) 2. Nf3 Nc6 *');
  test.each([
    // [colour, game, expected]
    ['white', 'e4 e5 Nf3 Nc6', { status: 'in-repertoire', lastBookPly: 4 }],
    ['white', 'e4 e5 Nf3 Nc6 Bb5', { status: 'repertoire-ended', lastBookPly: 4 }],
    ['white', 'e4 e5 Bc4', { status: 'deviation', ply: 3, san: 'Bc4', by: 'owner', prepared: ['Nf3'] }],
    ['white', 'e4 d5', { status: 'deviation', ply: 2, san: 'd5', by: 'opponent', prepared: ['e5', 'c5'] }],
    ['black', 'e4 d5', { status: 'deviation', ply: 2, san: 'd5', by: 'owner' }],
    // 1.Nf3 e5 2.e4 is 1.e4 e5 2.Nf3: in the repertoire by position.
    ['white', 'Nf3 e5 e4 Nc6', { status: 'in-repertoire', lastBookPly: 4 }],
    ['white', 'Nf3 d5', { status: 'deviation', ply: 1, san: 'Nf3', by: 'owner', prepared: ['e4'] }],
  ] as const)('%s %s', (colour, game, expected) => {
    expect(walkRepertoire(book, colour, game.split(' '))).toMatchObject(expected);
  });

  test('the en-passant field does not split a position', () => {
    expect(positionKey('rnbqkbnr/pppp1ppp/8/4p3/4P3/8/PPPP1PPP/RNBQKBNR w KQkq e6 0 2')).toBe(positionKey('rnbqkbnr/pppp1ppp/8/4p3/4P3/8/PPPP1PPP/RNBQKBNR w KQkq - 0 3'));
  });
});

import { describe, expect, test } from 'vitest';
import { checkFen } from '../../src/chess/fen.js';

describe('checkFen', () => {
  test.each([
    ['the start position', 'rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1'],
    // After 1.e4 e5 2.Nf3 Nc6 3.Bb5 (Ruy Lopez), Black to move.
    ['the Ruy Lopez', 'r1bqkbnr/pppp1ppp/2n5/1B2p3/4P3/5N2/PPPP1PPP/RNBQK2R b KQkq - 3 3'],
    // A king-and-pawn ending: side to move in check is fine (it is their move to get out of it).
    ['side to move in check', '8/8/8/8/8/5k2/4q3/4K3 w - - 0 1'],
  ])('accepts %s', (_, fen) => {
    expect(checkFen(fen)).toEqual({ ok: true, fen });
  });

  test.each([
    ['garbage', 'not a fen', /./],
    ['a rank of 9 squares', 'rnbqkbnr/pppppppp/9/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1', /./],
    ['two white kings', '4k3/8/8/8/8/8/8/3KK3 w - - 0 1', /kings/],
    ['no black king', '8/8/8/8/8/8/8/4K3 w - - 0 1', /king/],
    ['a white pawn on the 8th rank', 'P3k3/8/8/8/8/8/8/4K3 w - - 0 1', /pawn/],
    ['a black pawn on the 1st rank', '4k3/8/8/8/8/8/8/p3K3 w - - 0 1', /pawn/],
    // White to move, yet Black's king on e8 is attacked by the rook on e1's file: Black just moved into check.
    ['the side not to move in check', '4k3/8/8/8/8/8/8/3KR3 w - - 0 1', /not to move/],
  ])('refuses %s', (_, fen, reason) => {
    const r = checkFen(fen);
    expect(r.ok).toBe(false);
    if (!r.ok) expect(r.reason).toMatch(reason);
  });

  test('normalises spacing', () => {
    expect(checkFen('  4k3/8/8/8/8/8/8/4K3   w - - 0 1 ')).toEqual({ ok: true, fen: '4k3/8/8/8/8/8/8/4K3 w - - 0 1' });
  });
});

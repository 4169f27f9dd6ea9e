import { describe, expect, test } from 'vitest';
import { checkFen } from '../../src/chess/fen.js';

describe('checkFen', () => {
  test.each([
    ['the start position', 'rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1'],
    // After 1.e4 e5 2.Nf3 Nc6 3.Bb5 (Ruy Lopez), Black to move.
    ['the Ruy Lopez', 'r1bqkbnr/pppp1ppp/2n5/1B2p3/4P3/5N2/PPPP1PPP/RNBQK2R b KQkq - 3 3'],
    // A king-and-pawn ending: side to move in check is fine (it is their move to get out of it).
    ['side to move in check', '8/8/8/8/8/5k2/4q3/4K3 w - - 0 1'],
    // After 1.e4 Nf6 2.e5 d5: White may take on d6.
    ['en passant d6 after ...d5', 'rnbqkb1r/ppp1pppp/5n2/3pP3/8/8/PPPP1PPP/RNBQKBNR w KQkq d6 0 3'],
    // Kings and rooks at home with partial rights.
    ['castling rights Kq', 'r3k3/8/8/8/8/8/8/4K2R w Kq - 0 1'],
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
    // Castling (FIDE 3.8.2.1): the right needs the king and that rook on their starting squares.
    ['castling K with no rook on h1', '4k3/8/8/8/8/8/8/R3K3 w K - 0 1', /castling right K .*h1/],
    ['castling Q with no rook on a1', '4k3/8/8/8/8/8/8/4K2R w Q - 0 1', /castling right Q .*a1/],
    ['castling KQ with the king off e1', '4k3/8/8/8/8/8/8/R2K3R w KQ - 0 1', /castling right K .*e1/],
    ['castling k with a white rook on h8', 'r3k2R/8/8/8/8/8/8/4K3 w k - 0 1', /castling right k .*h8/],
    ['castling q with no black rook on a8', '4k2r/8/8/8/8/8/8/4K3 b q - 0 1', /castling right q .*a8/],
    // En passant (FIDE 3.7.4): a pawn that just made the double step, the squares it crossed empty.
    ['en passant e3 with no pawn on e4', 'rnbqkbnr/pppppppp/8/8/8/8/PPPP1PPP/RNBQKBNR b KQkq e3 0 1', /en-passant square e3 .*e4/],
    // e4 was played earlier and Be2 was the last move: e2 is not empty.
    ['en passant e3 with e2 occupied', 'rnbqkbnr/pppppppp/8/8/4P3/8/PPPPBPPP/RNBQK1NR b KQkq e3 0 1', /en-passant square e3/],
    ['en passant d6 with a piece on d6', 'rnbqkb1r/ppp1pppp/3n4/3pP3/8/8/PPPP1PPP/RNBQKBNR w KQkq d6 0 3', /en-passant square d6/],
    ['en passant d6 with a white pawn on d5', 'rnbqkbnr/ppp1pppp/8/3P4/8/8/PPP1PPPP/RNBQKBNR w KQkq d6 0 3', /en-passant square d6 .*black pawn on d5/],
  ])('refuses %s', (_, fen, reason) => {
    const r = checkFen(fen);
    expect(r.ok).toBe(false);
    if (!r.ok) expect(r.reason).toMatch(reason);
  });

  test('accepts e3 after 1.e4 (the standard FEN records it after any double step, PGN standard 16.1.3.4); chess.js writes it as - when no capture is possible', () => {
    expect(checkFen('rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq e3 0 1').ok).toBe(true);
  });

  test('normalises spacing', () => {
    expect(checkFen('  4k3/8/8/8/8/8/8/4K3   w - - 0 1 ')).toEqual({ ok: true, fen: '4k3/8/8/8/8/8/8/4K3 w - - 0 1' });
  });
});

import { Chess } from 'chess.js';
import { describe, expect, it } from 'vitest';
import { playSan, undoPlayed } from '../../src/chess/sanReplay.js';

/** What Chess.move(token) does on a copy of `fen`: the SAN and UCI, or null when it throws. */
function oracle(fen: string, token: string) {
  const board = new Chess(fen);
  try {
    const mv = board.move(token);
    return { san: mv.san, uci: mv.from + mv.to + (mv.promotion ?? ''), fen: board.fen(), nullMove: mv.from === mv.to };
  } catch {
    return null;
  }
}

function played(fen: string, token: string) {
  const board = new Chess(fen);
  const r = playSan(board, token);
  return { r, fen: board.fen() };
}

// A linear congruential generator: the same "random" games on every run.
function lcg(seed: number) {
  let s = seed;
  return () => (s = (s * 1103515245 + 12345) & 0x7fffffff) / 0x80000000;
}

describe('playSan', () => {
  it('plays hand-worked moves: disambiguation, promotion with mate, en passant, castling', () => {
    // Knights on b1 and f3 can both reach d2: SAN names the file.
    const knights = '4k3/8/8/8/8/5N2/8/1N2K3 w - - 0 1';
    expect(played(knights, 'Nbd2').r).toEqual({ san: 'Nbd2', uci: 'b1d2', from: 'b1', to: 'd2' });
    // Rooks on a1 and a5 on one file: SAN names the rank.
    expect(played('4k3/8/8/R7/8/8/8/R3K3 w - - 0 1', 'R1a3').r).toEqual({ san: 'R1a3', uci: 'a1a3', from: 'a1', to: 'a3' });
    // e7-e8=Q mates the king boxed in on h8 by its own pawns.
    expect(played('7k/4P1pp/8/8/8/8/8/4K3 w - - 0 1', 'e8=Q').r).toEqual({ san: 'e8=Q#', uci: 'e7e8q', from: 'e7', to: 'e8' });
    const ep = played('4k3/8/8/3pP3/8/8/8/4K3 w - d6 0 2', 'exd6');
    expect(ep.r).toEqual({ san: 'exd6', uci: 'e5d6', from: 'e5', to: 'd6' });
    expect(ep.fen).toBe('4k3/8/3P4/8/8/8/8/4K3 b - - 0 2');
    expect(played('4k3/8/8/8/8/8/8/4K2R w K - 0 1', 'O-O').r).toEqual({ san: 'O-O', uci: 'e1g1', from: 'e1', to: 'g1' });
  });

  it('accepts and refuses exactly what Chess.move accepts, with its SAN, UCI and position', () => {
    const knights = '4k3/8/8/8/8/5N2/8/1N2K3 w - - 0 1';
    const start = new Chess().fen();
    const cases: Array<[string, string]> = [
      [start, 'e4'],
      [start, 'e2e4'], // long algebraic: chess.js's permissive parser
      [start, 'Pe4'],
      [start, 'Nf3+'], // a check mark that is not true is ignored, as chess.js does
      [start, 'Nxf3'], // nothing to capture: refused
      [start, 'e5'],
      [start, '--'], // null move
      [knights, 'Nd2'], // ambiguous: refused
      [knights, 'Nfd2'],
      [knights, 'Nf3d2'],
      ['r1bqkbnr/ppp2ppp/2n5/1B1pP3/4P3/8/PPPP2PP/RNBQK1NR b KQkq - 2 4', 'Nge7'], // over-disambiguated (c6 is pinned)
      ['4k3/4P3/8/8/8/8/8/4K3 w - - 0 1', 'e8'], // promotion without the piece
      ['4k3/P7/8/8/8/8/8/4K3 w - - 0 1', 'a8N'],
      ['4k3/P7/8/8/8/8/8/4K3 w - - 0 1', 'a8=N'],
      ['4k3/8/8/8/8/8/8/4K2R w K - 0 1', 'Kg1'],
      ['r3k3/8/8/8/8/8/8/4K2R b q - 0 1', 'O-O-O+'],
      ['4k3/8/8/8/8/8/4r3/4K3 w - - 0 1', '--'], // null move in check: refused
    ];
    for (const [fen, token] of cases) {
      const want = oracle(fen, token);
      const got = played(fen, token);
      if (!want) expect(got.r, `${token} at ${fen}`).toBe('illegal');
      else if (want.nullMove) expect(got.r, `${token} at ${fen}`).toBe('null');
      else {
        expect(got.r, `${token} at ${fen}`).toEqual({ san: want.san, uci: want.uci, from: want.uci.slice(0, 2), to: want.uci.slice(2, 4) });
        expect(got.fen).toBe(want.fen);
      }
    }
  });

  // CPU-bound (3,000 plies through chess.js twice): about 9 s alone, three times that beside the pairing test's processes.
  it('replays random games (captures, checks, promotions, en passant, castling favoured) ply for ply as Chess.move', { timeout: 120_000 }, () => {
    const rnd = lcg(20261126);
    let plies = 0;
    let promotions = 0;
    let enPassant = 0;
    for (let g = 0; g < 16; g += 1) {
      const reference = new Chess(g % 4 === 3 ? 'r3k2r/pPp2ppp/8/3pP3/8/8/P1P2PpP/R3K2R w KQkq d6 0 1' : undefined);
      const fast = new Chess(reference.fen());
      for (let i = 0; i < 200 && !reference.isGameOver(); i += 1) {
        const moves = reference.moves({ verbose: true });
        const sharp = moves.filter((m) => m.captured || m.promotion || /[+#]/.test(m.san) || /[ekq]/.test(m.flags));
        const pool = sharp.length && rnd() < 0.5 ? sharp : moves;
        const mv = reference.move(pool[Math.floor(rnd() * pool.length)].san);
        const got = playSan(fast, mv.san);
        expect(got).toEqual({ san: mv.san, uci: mv.from + mv.to + (mv.promotion ?? ''), from: mv.from, to: mv.to });
        expect(fast.fen()).toBe(reference.fen());
        plies += 1;
        if (mv.promotion) promotions += 1;
        if (mv.flags.includes('e')) enPassant += 1;
      }
      // The repetition count is chess.js's too, and taking moves back leaves the boards equal.
      expect(fast.isThreefoldRepetition()).toBe(reference.isThreefoldRepetition());
      for (let k = 0; k < 6; k += 1) {
        reference.undo();
        undoPlayed(fast);
        expect(fast.fen()).toBe(reference.fen());
        expect(fast.history()).toEqual(reference.history());
      }
    }
    expect(plies).toBeGreaterThan(1000);
    expect(promotions).toBeGreaterThan(0);
    expect(enPassant).toBeGreaterThan(0);
  });
});

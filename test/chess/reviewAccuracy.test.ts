import { describe, expect, test } from 'vitest';
import type { StoredAnalysis, StoredPosition } from '../../schemas/engine.js';
import { analysisEvals, positionScore } from '../../src/chess/reviewAccuracy.js';
import { gamePositions } from '../../src/chess/positions.js';
import { START_FEN } from '../../src/chess/pgn.js';

// Fool's mate: 1.f3 e5 2.g4 Qh4#. Positions 0-4; position 4 is checkmate with White to move.
const moves = ['f2f3', 'e7e5', 'g2g4', 'd8h4'];

function analysis(scores: Array<{ cp: number | null; mate: number | null } | null>): StoredAnalysis {
  const positions: StoredPosition[] = gamePositions(START_FEN, moves).map((p, i) => ({
    index: p.index,
    fen: p.fen,
    lines: scores[i] ? [{ multiPv: 1, score: scores[i]!, pv: ['a2a3'], depth: 10 }] : [],
    terminal: p.terminal,
    depth: scores[i] ? 10 : 0,
    nodes: scores[i] ? 1000 : 0,
  }));
  return {
    engine: { name: 'Stockfish', version: 'test' },
    budget: { nodesPerPosition: 1000, multiPv: 1 },
    startFen: START_FEN,
    movesUci: moves,
    positions,
    analysedAt: '2026-11-20T12:00:00.000Z',
  };
}

describe('scores from the side to move → White\'s point of view', () => {
  test('the final position of fool\'s mate is recognised as checkmate', () => {
    expect(gamePositions(START_FEN, moves).map((p) => p.terminal)).toEqual([null, null, null, null, 'checkmate']);
  });

  test('cp and mate scores flip sign when Black is to move; a mated side to move is the -1000 ceiling', () => {
    // After 1.f3 (Black to move) Black is +40 → White -40; after 1...e5 (White to move) White -60;
    // after 2.g4 (Black to move) Black mates in 1 → White is mated in 1: mate -1; after 2...Qh4# White is mated.
    const a = analysis([{ cp: 20, mate: null }, { cp: 40, mate: null }, { cp: -60, mate: null }, { cp: null, mate: 1 }, null]);
    expect(analysisEvals(a)).toEqual([{ eval: -40 }, { eval: -60 }, { mate: -1 }, { eval: -1000 }]);
    expect(positionScore(a.positions[4])).toEqual({ cp: null, mate: 0 });
  });
});

import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, test } from 'vitest';
import { answerKind, essayKeyPly, readAnswer } from '../../../web/app/answer.js';
import { modelContext, moveLabel } from '../../../web/app/context.js';
import { pgnMoves } from '../../../web/positions.js';

const LIBRARY = join(import.meta.dirname, '..', '..', '..', 'data', 'library');
const library = (slug: string) => ({ essay: readFileSync(join(LIBRARY, slug, 'essay.md'), 'utf8'), pgn: readFileSync(join(LIBRARY, slug, 'game.pgn'), 'utf8') });

describe('what an answer is about (web/app/answer.ts)', () => {
  test("a library game's key move: the first move its essay's turning points cite after the opening paragraph", () => {
    // The Immortal Game's essay: "The opening is a King's Gambit. After 2.f4 exf4 3.Bc4 …" (first paragraph),
    // then "With 10.g4 and 11.Rg1 Anderssen offers his bishop": White's 10th move, ply 19.
    const g = library('anderssen-kieseritzky-1851');
    const { moves } = pgnMoves(g.pgn);
    expect(essayKeyPly(g.essay, moves)).toBe(19);
    // Kasparov–Topalov 1999: the second paragraph opens "Kasparov now plays 24.Rxd4": ply 47.
    const k = library('kasparov-topalov-1999');
    expect(essayKeyPly(k.essay, pgnMoves(k.pgn).moves)).toBe(47);
    // Black's moves count too ("16...Bg4" is ply 32), and a cited move that is not the game's is passed over.
    const essay = '## Turning points\n\nThe opening.\n\nHere 3.Nf3 was possible, but 2...d5 came.\n\n## What to learn\n';
    expect(essayKeyPly(essay, ['e4', 'e5', 'd4', 'd5'])).toBe(4);
    expect(essayKeyPly('## Turning points\n\nNothing cited.\n', ['e4'])).toBeNull();
  });

  test('every essay of the library names a key move of its game', () => {
    for (const slug of readdirSync(LIBRARY).filter((s) => !s.includes('.'))) {
      const g = library(slug);
      const { moves } = pgnMoves(g.pgn);
      const key = essayKeyPly(g.essay, moves);
      expect(key, slug).not.toBeNull();
      expect(key!, slug).toBeLessThanOrEqual(moves.length);
    }
  });

  test('each tool opens where its answer points: the first moment before its move, an analysis page at its fromPly, a game at its end', () => {
    const moment = { ply: 36, moveNumber: 18, fen: 'x', playedMove: { san: 'f6', uci: 'f7f6' } };
    expect(readAnswer('moments', { gameId: 'g1', userColour: 'black', moments: [moment] })).toMatchObject({ openPly: 35, openFen: 'x', orientation: 'black', gameId: 'g1' });
    expect(readAnswer('analysis', { gameId: 'g1', userColour: 'white', plies: [{ ply: 9, fenAfter: 'y' }] })).toMatchObject({ openPly: 9, openFen: 'y' });
    expect(readAnswer('game', { id: 'g1', colour: 'black', opponent: 'pawn_wizard158', moves: ['e4', 'e5'], pgn: null })).toMatchObject({ openPly: null, moves: ['e4', 'e5'], title: 'pawn_wizard158 – You', orientation: 'black' });
    // An unreviewed game's analysis and moments answer analysed: false: the board opens on the game's end.
    expect(readAnswer('moments', { analysed: false, gameId: 'g1' }).openPly).toBeNull();
  });

  test('the tool is the host’s word when it gives it, else the answer’s shape', () => {
    expect(answerKind('get_critical_moments', {})).toBe('moments');
    expect(answerKind(undefined, { slug: 's', pgn: '1. e4' })).toBe('library');
    expect(answerKind(undefined, { id: 'g', moves: [] })).toBe('game');
    expect(answerKind(undefined, { gameId: 'g', moments: [] })).toBe('moments');
    expect(answerKind(undefined, { gameId: 'g', plies: [] })).toBe('analysis');
    expect(answerKind(undefined, { games: [] })).toBeNull();
  });
});

describe('what the model is told (web/app/context.ts)', () => {
  test('moves numbered as a player writes them; the engine’s choice only once the player has asked', () => {
    expect(moveLabel(36, 'f6')).toBe('18…f6');
    expect(moveLabel(35, 'Bd6')).toBe('18.Bd6');
    const shown = {
      title: 'You – pawn_wizard158',
      gameId: 'g1',
      slug: null,
      ply: 35,
      totalPlies: 60,
      fen: 'FEN',
      last: { ply: 35, san: 'Bd6', judgment: null, classification: 'good', evaluation: '+0.40' },
      next: { ply: 36, san: 'f6', judgment: 'blunder', classification: 'blunder', evaluation: '+3.10' },
      moment: { label: 'a critical moment (blunder, critical)', engineChoice: 'Qe7', revealed: false },
    };
    const hidden = modelContext(shown);
    expect(hidden.content[0].text).toContain('FEN FEN');
    expect(hidden.content[0].text).toContain("Next in the game: 18…f6, lichess's judgment: blunder; evaluation after it +3.10 (White's view).");
    expect(hidden.content[0].text).not.toContain('Qe7');
    expect(hidden.structuredContent).toMatchObject({ fen: 'FEN', ply: 35, lastMove: { move: '18.Bd6' }, nextMove: { move: '18…f6', judgment: 'blunder' }, moment: { engineChoice: null } });
    const revealed = modelContext({ ...shown, moment: { ...shown.moment, revealed: true } });
    expect(revealed.content[0].text).toContain("The player has revealed the engine's choice: Qe7.");
  });
});

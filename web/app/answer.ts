import type { AnalysedPly } from '../analysis.js';
import { pgnMoves, pgnStartFen } from '../positions.js';

// What a tool answer is about, read from the answer alone (structuredContent): the chat board opens there.
// The four tools that carry the board (tools/app.ts) answer in these shapes (schemas/games.ts GameDetail,
// schemas/analysis.ts AnalysisResponse and CriticalMomentsResponse, schemas/library.ts LibraryGameDetail).

export interface MoveRef {
  san: string;
  uci: string | null;
}

/** One reviewed ply as get_game_analysis answers it (the fields the board reads). */
export interface ReviewPly extends AnalysedPly {
  moveNumber: number;
  fenBefore: string;
  fenAfter: string;
  playedMove: MoveRef;
  bestMove: MoveRef | null;
  isBestMove: boolean;
  judgment: string | null;
}

/** One critical moment as get_critical_moments answers it. */
export interface MomentView {
  ply: number;
  moveNumber: number;
  fen: string | null;
  sideToMove: string;
  isUserMove: boolean;
  type: string | null;
  severity: string;
  classification: string | null;
  judgment: string | null;
  playedMove: MoveRef;
  bestMove: MoveRef | null;
  trainingQuestion: string | null;
  hints: string[];
}

export type AnswerKind = 'game' | 'analysis' | 'moments' | 'library';

export interface GameView {
  kind: AnswerKind;
  title: string;
  orientation: 'white' | 'black';
  /** The owner's game id (the three personal tools); null for a library game. */
  gameId: string | null;
  /** The mainline in SAN when known (get_game, the library's PGN); null until fetched. */
  moves: string[] | null;
  startFen: string;
  /** Reviewed plies: the answer's page, or every ply once fetched. */
  plies: ReviewPly[];
  moments: MomentView[];
  /** The position the board opens on: after this many plies; null = the final position. */
  openPly: number | null;
  /** The FEN of that position when the answer states it (a moment's fen, an analysis ply's fenAfter). */
  openFen: string | null;
  /** A library game's key move (its ply), drawn from the position before it like a moment's move. */
  keyPly: number | null;
}

const TOOL_KINDS: Record<string, AnswerKind> = { get_game: 'game', get_game_analysis: 'analysis', get_critical_moments: 'moments', get_library_game: 'library' };

/** Which answer this is: by the tool's name when the host says it (hostContext.toolInfo), else by its shape. */
export function answerKind(toolName: string | undefined, sc: Record<string, unknown>): AnswerKind | null {
  if (toolName && TOOL_KINDS[toolName]) return TOOL_KINDS[toolName];
  if (typeof sc.slug === 'string' && typeof sc.pgn === 'string') return 'library';
  if (Array.isArray(sc.moves) && typeof sc.id === 'string') return 'game';
  if (typeof sc.gameId === 'string' && ('moments' in sc || 'filters' in sc)) return 'moments';
  if (typeof sc.gameId === 'string') return 'analysis';
  return null;
}

const colourOf = (c: unknown): 'white' | 'black' => (c === 'black' ? 'black' : 'white');

/** The owner against the opponent, in board order ("You – pawn_wizard158"). */
export const ownerTitle = (colour: string, opponent: string) => (colour === 'black' ? `${opponent} – You` : `You – ${opponent}`);

export function readAnswer(kind: AnswerKind, sc: any): GameView {
  const base = { kind, moves: null, startFen: pgnStartFen(null), plies: [], moments: [], openPly: null, openFen: null, keyPly: null };
  switch (kind) {
    case 'game':
      return { ...base, title: ownerTitle(sc.colour, sc.opponent ?? '?'), orientation: colourOf(sc.colour), gameId: sc.id, moves: sc.moves ?? [], startFen: pgnStartFen(sc.pgn) };
    case 'analysis': {
      const plies: ReviewPly[] = sc.plies ?? [];
      const first = plies[0];
      return { ...base, title: 'Your game', orientation: colourOf(sc.userColour), gameId: sc.gameId, plies, openPly: first ? first.ply : null, openFen: first?.fenAfter ?? null };
    }
    case 'moments': {
      const moments: MomentView[] = sc.moments ?? [];
      const first = moments[0];
      return { ...base, title: 'Your game', orientation: colourOf(sc.userColour), gameId: sc.gameId, moments, openPly: first ? first.ply - 1 : null, openFen: first?.fen ?? null };
    }
    case 'library': {
      const { moves, startFen } = pgnMoves(sc.pgn);
      const key = essayKeyPly(sc.essay ?? '', moves);
      return { ...base, title: `${sc.white} – ${sc.black}`, orientation: 'white', gameId: null, moves, startFen, openPly: key ? key - 1 : null, keyPly: key };
    }
  }
}

// A move as the library's essays cite it: "17.Nd5", "17...Qxb2", "22…Nxf6", "11.O-O-O".
const CITED = /\b(\d+)(\.\.\.|…|\.)\s?((?:[KQRBN][a-h]?[1-8]?x?[a-h][1-8]|[a-h](?:x[a-h])?[1-8](?:=[QRBN])?|O-O(?:-O)?)[+#]?)/g;
const bare = (san: string) => san.replace(/[+#!?]+$/, '');

/**
 * A library game's key move: the first move its essay's "Turning points" cites after that section's first
 * paragraph (the essays, written for this project, tell the opening there and the game's turn from the second
 * paragraph on), as a ply, when it is a move of the game; else the first cited move of the section; null when the
 * essay cites none of the game's moves (the board then opens on the final position).
 */
export function essayKeyPly(essay: string, moves: readonly string[]): number | null {
  const section = /##\s*Turning points\s*\n([\s\S]*?)(?=\n##\s|$)/i.exec(essay)?.[1] ?? '';
  const paragraphs = section.split(/\n\s*\n/).map((p) => p.trim()).filter(Boolean);
  const cited = (text: string): number | null => {
    for (const m of text.matchAll(CITED)) {
      const ply = 2 * Number(m[1]) - (m[2] === '.' ? 1 : 0);
      if (ply >= 1 && ply <= moves.length && bare(moves[ply - 1]) === bare(m[3])) return ply;
    }
    return null;
  };
  return cited(paragraphs.slice(1).join('\n\n')) ?? cited(paragraphs[0] ?? '');
}

import { numberedMove } from '../format.js';

// What the model is told the player is looking at (ui/update-model-context): the position on the board, the move
// that led to it and the one played from it, each with its number ("18…f6"), the evaluation and lichess's judgment
// when the game is reviewed. Sent on every position change; the host keeps only the last.

export interface MoveFacts {
  /** The ply (1 = White's first move). */
  ply: number;
  san: string;
  judgment: string | null;
  classification: string | null;
  /** The evaluation after the move, White's view, as text ("+1.20", "#-3"); null when not reviewed. */
  evaluation: string | null;
}

export interface Shown {
  title: string;
  gameId: string | null;
  slug: string | null;
  ply: number;
  totalPlies: number | null;
  fen: string;
  /** The move that led to the position; null at the start. */
  last: MoveFacts | null;
  /** The game's next move, played from this position; null at the end or when not known. */
  next: MoveFacts | null;
  /** When the next move is a critical moment (or a library game's key move): its kind, and the engine's choice. */
  moment: { label: string; engineChoice: string | null; revealed: boolean } | null;
}

/** "18…f6" for ply 36 with f6. */
export const moveLabel = (ply: number, san: string) => numberedMove(ply - 1, san);

function moveLine(m: MoveFacts): string {
  const judged = m.judgment ? `, lichess's judgment: ${m.judgment}` : m.classification ? ` (${m.classification})` : '';
  const evaluation = m.evaluation ? `; evaluation after it ${m.evaluation} (White's view)` : '';
  return `${moveLabel(m.ply, m.san)}${judged}${evaluation}`;
}

export function modelContext(shown: Shown): { content: Array<{ type: 'text'; text: string }>; structuredContent: Record<string, unknown> } {
  const lines = [
    `The player is looking at ${shown.title} on the chess-footprint board${shown.gameId ? ` (game id ${shown.gameId})` : shown.slug ? ` (library game ${shown.slug})` : ''}.`,
    `Position after ply ${shown.ply}${shown.totalPlies !== null ? ` of ${shown.totalPlies}` : ''}: FEN ${shown.fen}`,
    shown.last ? `Move played: ${moveLine(shown.last)}.` : 'The start position: no move played yet.',
  ];
  if (shown.next) lines.push(`Next in the game: ${moveLine(shown.next)}.`);
  if (shown.moment) {
    const choice = shown.moment.engineChoice
      ? shown.moment.revealed
        ? `The player has revealed the engine's choice: ${shown.moment.engineChoice}.`
        : "The engine's choice is hidden from the player until they ask; do not name it unless they do."
      : '';
    lines.push(`That move is ${shown.moment.label}. ${choice}`.trim());
  }
  const facts = (m: MoveFacts | null) => (m ? { ...m, move: moveLabel(m.ply, m.san) } : null);
  return {
    content: [{ type: 'text', text: lines.join('\n') }],
    structuredContent: {
      fen: shown.fen,
      ply: shown.ply,
      totalPlies: shown.totalPlies,
      gameId: shown.gameId,
      slug: shown.slug,
      lastMove: facts(shown.last),
      nextMove: facts(shown.next),
      moment: shown.moment ? { label: shown.moment.label, engineChoice: shown.moment.revealed ? shown.moment.engineChoice : null } : null,
    },
  };
}

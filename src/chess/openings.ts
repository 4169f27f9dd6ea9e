import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { Chess } from 'chess.js';
import { dataDir } from '../paths.js';

export interface OpeningLine {
  eco: string;
  name: string;
  /** The named line in SAN. */
  moves: string[];
}

export interface OpeningMatch extends OpeningLine {
  /** How many plies of the game were walked when the deepest named position was last seen. */
  matchedPlies: number;
}

/** Position identity without the move counters, so transpositions meet. */
function positionKey(fen: string): string {
  return fen.split(' ').slice(0, 4).join(' ');
}

let table: { lines: OpeningLine[]; byPosition: Map<string, OpeningLine> } | null = null;

/** The lichess chess-openings table (CC0) shipped in data/openings, loaded once. */
export function openingTable() {
  if (table) return table;
  const lines: OpeningLine[] = [];
  const byPosition = new Map<string, OpeningLine>();
  for (const file of ['a', 'b', 'c', 'd', 'e']) {
    const text = readFileSync(join(dataDir, 'openings', `${file}.tsv`), 'utf8');
    for (const row of text.split('\n').slice(1)) {
      if (!row.trim()) continue;
      const [eco, name, pgn] = row.split('\t');
      const moves = pgn
        .split(/\s+/)
        .filter((t) => t && !/^\d+\.+$/.test(t))
        .map((t) => t.replace(/^\d+\.+/, ''));
      const line = { eco, name, moves };
      lines.push(line);
      const board = new Chess();
      for (const san of moves) board.move(san);
      const key = positionKey(board.fen());
      // Several names can share a position; the table lists the general one first, keep it.
      if (!byPosition.has(key)) byPosition.set(key, line);
    }
  }
  table = { lines, byPosition };
  return table;
}

/**
 * Names a game by walking its moves and keeping the deepest named position reached
 * (by position, not move order, so transpositions are caught). Null when no position is named.
 */
export function classifyOpening(sanMoves: readonly string[], maxPlies = 40): OpeningMatch | null {
  const { byPosition } = openingTable();
  const board = new Chess();
  let best: OpeningMatch | null = null;
  for (let i = 0; i < Math.min(sanMoves.length, maxPlies); i += 1) {
    try {
      board.move(sanMoves[i]);
    } catch {
      break;
    }
    const hit = byPosition.get(positionKey(board.fen()));
    if (hit) best = { ...hit, matchedPlies: i + 1 };
  }
  return best;
}

/** True when the position after `plies` plies of the game is a named opening position ("book"). */
export function isBookPosition(fen: string): boolean {
  return openingTable().byPosition.has(positionKey(fen));
}

/** The family of an opening name: the part before the colon ("Sicilian Defense: Najdorf" → "Sicilian Defense"). */
export function openingFamily(name: string): string {
  return name.split(':')[0].trim();
}

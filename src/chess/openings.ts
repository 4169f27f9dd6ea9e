import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { Chess, DEFAULT_POSITION } from 'chess.js';
import { dataDir } from '../paths.js';
import { playSan, undoPlayed } from './sanReplay.js';

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

/** How many plies classifyOpening walks: a game's replay keeps the positions of this many for it. */
export const OPENING_PLIES = 40;

/** Position identity without the move counters, so transpositions meet. */
function positionKey(fen: string): string {
  return fen.split(' ').slice(0, 4).join(' ');
}

let table: { lines: OpeningLine[]; byPosition: Map<string, OpeningLine> } | null = null;

/** The lichess chess-openings table (CC0) shipped in data/openings, loaded once. */
export function openingTable() {
  if (table) return table;
  const lines: OpeningLine[] = [];
  for (const file of ['a', 'b', 'c', 'd', 'e']) {
    const text = readFileSync(join(dataDir, 'openings', `${file}.tsv`), 'utf8');
    for (const row of text.split('\n').slice(1)) {
      if (!row.trim()) continue;
      const [eco, name, pgn] = row.split('\t');
      const moves = pgn
        .split(/\s+/)
        .filter((t) => t && !/^\d+\.+$/.test(t))
        .map((t) => t.replace(/^\d+\.+/, ''));
      lines.push({ eco, name, moves });
    }
  }
  // Replaying each line from the start costs ~30,000 moves; walking them in move order and undoing
  // only back to the shared prefix plays each distinct prefix once.
  const byPosition = new Map<string, OpeningLine>();
  const firstIndex = new Map<string, number>();
  const order = lines.map((_, i) => i).sort((a, b) => compareMoves(lines[a].moves, lines[b].moves) || a - b);
  const board = new Chess();
  let played: string[] = [];
  for (const i of order) {
    const line = lines[i];
    let common = 0;
    while (common < played.length && common < line.moves.length && played[common] === line.moves[common]) common += 1;
    for (let k = played.length; k > common; k -= 1) undoPlayed(board);
    for (const san of line.moves.slice(common)) {
      // As board.move(san) did, without its Move objects (most of the table's load time).
      if (typeof playSan(board, san) === 'string') throw new Error(`opening table: ${line.eco} ${line.name}: ${san} is not legal`);
    }
    played = line.moves;
    const key = positionKey(board.fen());
    // Several names can share a position; keep the one listed first in the table (the general name).
    if ((firstIndex.get(key) ?? Infinity) > i) {
      firstIndex.set(key, i);
      byPosition.set(key, line);
    }
  }
  table = { lines, byPosition };
  return table;
}

/**
 * Names a game by walking its moves and keeping the deepest named position reached
 * (by position, not move order, so transpositions are caught). Null when no position is named.
 */
function compareMoves(a: readonly string[], b: readonly string[]): number {
  for (let i = 0; i < Math.min(a.length, b.length); i += 1) {
    if (a[i] !== b[i]) return a[i] < b[i] ? -1 : 1;
  }
  return a.length - b.length;
}

export function classifyOpening(sanMoves: readonly string[], maxPlies = OPENING_PLIES): OpeningMatch | null {
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

/**
 * classifyOpening for a game already replayed: the same answer, read from the positions the replay
 * printed (`fensAfter[i]` after ply i + 1) instead of playing the moves a second time. classifyOpening
 * walks the SAN from the standard start whatever the game's own start, so a game from another
 * position (or whose replay kept too few positions) is walked by it as before.
 */
export function classifyReplayed(game: { startFen: string; plies: ReadonlyArray<{ san: string }>; fensAfter: readonly string[] }): OpeningMatch | null {
  const walk = Math.min(game.plies.length, OPENING_PLIES);
  if (game.startFen !== DEFAULT_POSITION || game.fensAfter.length < walk) return classifyOpening(game.plies.map((p) => p.san));
  const { byPosition } = openingTable();
  let best: OpeningMatch | null = null;
  for (let i = 0; i < walk; i += 1) {
    const hit = byPosition.get(positionKey(game.fensAfter[i]));
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

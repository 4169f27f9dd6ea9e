import { and, eq, inArray } from 'drizzle-orm';
import { positionKey, type StoredPosition } from '../../chess/engineOutput.js';
import { gamePositions } from '../../chess/positions.js';
import type { Store } from '../../store/db.js';
import { workerOpeningLines } from '../../store/schema/index.js';

/**
 * The fishnet protocol's `skipPositions` (issue 36): a job's opening positions whose answer the owner's
 * earlier worker reviews already hold at this budget. lichess skips the same ones from its evaluation
 * cache: the start position and the next 14 (lila modules/fishnet FishnetEvalCache, `maxPlies = 15`,
 * `uciList.take(maxPlies - 1)`). A repertoire repeats its first moves across hundreds of games, so the
 * positions a worker is asked to search again are fewest there.
 */
export const OPENING_POSITIONS = 15;

type Line = Omit<StoredPosition, 'index'>;

/** The job's positions (index → the stored answer, re-indexed) the owner already holds at `nodes`. */
export function knownOpeningLines(store: Store, userId: string, nodes: number, startFen: string, movesUci: readonly string[]): Map<number, StoredPosition> {
  let positions;
  try {
    positions = gamePositions(startFen, movesUci.slice(0, OPENING_POSITIONS - 1));
  } catch {
    // Moves that do not replay: nothing is skipped, and the submission check names the fault.
    return new Map();
  }
  const open = positions.filter((p) => !p.terminal);
  if (!open.length) return new Map();
  const keys = [...new Set(open.map((p) => positionKey(p.fen)))];
  const rows = store.db
    .select({ positionKey: workerOpeningLines.positionKey, line: workerOpeningLines.line })
    .from(workerOpeningLines)
    .where(and(eq(workerOpeningLines.userId, userId), eq(workerOpeningLines.nodes, nodes), inArray(workerOpeningLines.positionKey, keys)))
    .all();
  const byKey = new Map(rows.map((r) => [r.positionKey, JSON.parse(r.line) as Line]));
  const known = new Map<number, StoredPosition>();
  for (const p of open) {
    const line = byKey.get(positionKey(p.fen));
    // The game's own FEN (its move counters) with the answer found for the position.
    if (line) known.set(p.index, { ...line, index: p.index, fen: p.fen });
  }
  return known;
}

/**
 * Keeps a stored worker review's searched opening positions for later jobs; the first answer for a
 * position stays (INSERT OR IGNORE), so a job's known set only grows between hand-out and submission.
 * Runs inside the caller's transaction (the one that stores the review). Each row names the key whose review
 * answered it, so revoking the key drops them (keys.ts revokeKey).
 */
export function keepOpeningLines(store: Store, userId: string, nodes: number, positions: readonly StoredPosition[], keyId: string): void {
  const rows = positions
    .filter((p) => p.index < OPENING_POSITIONS && !p.terminal && p.lines.length > 0)
    .map(({ index: _index, ...line }) => ({ userId, positionKey: positionKey(line.fen), nodes, line: JSON.stringify(line), keyId }));
  if (rows.length) store.db.insert(workerOpeningLines).values(rows).onConflictDoNothing().run();
}

import { moveAccuracy } from '../chess/accuracy.js';
import type { TimeControlInfo } from '../chess/clocks.js';
import { capCp, flip, positionEval, type Evaluation } from '../chess/evaluation.js';
import type { Phase } from '../chess/phase.js';
import { buildPlies } from '../chess/plyAnalysis.js';
import type { Colour } from '../chess/types.js';
import { parseStoredAnalysis as parsePayload } from './review/records.js';
import type { StoredAnalysis } from '../../schemas/engine.js';
import type { Store } from '../store/db.js';

/**
 * The one place the insight views (opening tree, stats insight blocks) read stored reviews.
 * Today it parses the stored engine output of the `analyses` table; when the review core stores
 * its per-ply summary (src/services/review/), only the bodies of these functions change.
 */

const parseStoredAnalysis = (payload: string | StoredAnalysis): StoredAnalysis => (typeof payload === 'string' ? parsePayload(payload) : payload);

/** One parse of a stored review, for callers that read several figures of it. */
export function readStoredReview(payload: string): StoredAnalysis {
  return parseStoredAnalysis(payload);
}

/** Analyses payloads by movesKey, for the keys that have one (chunked under SQLite's variable limit). */
export function storedAnalysisPayloads(store: Store, movesKeys: readonly string[]): Map<string, string> {
  const out = new Map<string, string>();
  const keys = [...new Set(movesKeys)];
  for (let i = 0; i < keys.length; i += 500) {
    const chunk = keys.slice(i, i + 500);
    const rows = store.sqlite
      .prepare(`SELECT moves_key AS k, payload AS p FROM analyses WHERE moves_key IN (${chunk.map(() => '?').join(',')})`)
      .all(...chunk) as Array<{ k: string; p: string }>;
    for (const r of rows) out.set(r.k, r.p);
  }
  return out;
}

/** Which side is to move at position `index` of a game starting from `startFen` (index 0 = before ply 1). */
function sideToMove(startFen: string, index: number): Colour {
  const first: Colour = startFen.split(' ')[1] === 'b' ? 'black' : 'white';
  return index % 2 === 0 ? first : first === 'white' ? 'black' : 'white';
}

/**
 * The evaluations of the positions after each of `plies`, from `owner`'s side, in pawns clamped to
 * ±5 (the project's ±500 cp cap, src/chess/evaluation.ts) so one mate does not swamp an average.
 * Null for a ply past the end of the game or a position that was not analysed.
 */
export function ownerPawnsAfterPlies(payload: string | StoredAnalysis, owner: Colour, plies: readonly number[]): Array<number | null> {
  const analysis = parseStoredAnalysis(payload);
  return plies.map((ply) => {
    if (ply < 0 || ply > analysis.movesUci.length) return null;
    const e: Evaluation | null = positionEval(analysis.positions[ply]);
    if (!e) return null;
    const ownerView = sideToMove(analysis.startFen, ply) === owner ? e : flip(e);
    return capCp(ownerView.value) / 100;
  });
}

/** What the insight blocks need of one of the owner's reviewed moves. */
export interface OwnerMoveFact {
  phase: Phase | null;
  /** lichess's per-move accuracy (src/chess/accuracy.ts moveAccuracy); null when either evaluation is missing. */
  accuracy: number | null;
  /** Classified mistake, miss or blunder. */
  error: boolean;
  /** Seconds spent (clock before − clock after + increment); null without clocks. */
  timeSpentSeconds: number | null;
}

const ERRORS: ReadonlySet<string> = new Set(['mistake', 'miss', 'blunder']);

/**
 * The owner's moves of one reviewed game with their phase, accuracy, error flag and time spent,
 * derived from the stored engine output (withLines off: no line is replayed into SAN).
 */
export function ownerMoveFacts(
  payload: string | StoredAnalysis,
  owner: Colour,
  clocks: ReadonlyArray<number | null> | null,
  timeControl: TimeControlInfo | null,
): OwnerMoveFact[] {
  const plies = buildPlies(parseStoredAnalysis(payload), { userColour: owner, clocks, timeControl, withLines: () => false });
  return plies
    .filter((p) => p.ply.isUserMove)
    .map((p) => ({
      phase: p.ply.phase,
      accuracy: p.winPercentBefore !== null && p.winPercentAfter !== null ? moveAccuracy(p.winPercentBefore, p.winPercentAfter) : null,
      error: ERRORS.has(p.ply.classification),
      timeSpentSeconds: p.ply.timeSpentSeconds,
    }));
}

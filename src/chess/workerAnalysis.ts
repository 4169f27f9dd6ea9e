import type { EngineLine, StoredPosition } from './engineOutput.js';
import { gamePositions } from './positions.js';
import { boardAt, playUci } from './replay.js';

/**
 * An analysis a review worker submitted (issue 36: the fishnet protocol's `analysis`, schemas/fishnet.ts),
 * checked as the untrusted input it is before anything is stored: one entry per position, each
 * searched entry's PV legal from its own position, a score that position can have, and search figures
 * a Stockfish search at the asked budget can report. The shapes are structural here, so the chess
 * layer imports nothing above it.
 */
export type SubmittedScore = { cp: number } | { mate: number };
export interface SubmittedPosition {
  pv?: string;
  depth: number;
  score: SubmittedScore;
  nodes?: number;
  time?: number;
}
export type SubmittedEntry = SubmittedPosition | { skipped: true } | null;

export interface SubmissionBounds {
  /** The node limit the job asked for: a reported count above NODE_SLACK × it is not this search's. */
  nodesAsked: number;
  /**
   * Positions whose result the server already holds (those it named in skipPositions, and any it learned
   * since): a `{skipped: true}` entry is filled from here, and is a fault for a position not in it.
   */
  known: ReadonlyMap<number, StoredPosition>;
}

/**
 * How far past the asked limit a reported node count may go. Stockfish checks the limit between
 * batches of nodes and helper threads finish their iteration after the main thread stops; a stock
 * fishnet client searches 6/7 of the limit (api.rs `NodeLimit::get`). Twice the limit is far above any
 * honest overshoot and far below a search made at another budget.
 */
export const NODE_SLACK = 2;
/**
 * How much of a submitted PV is checked and kept: its first 12 plies, as lichess keeps of a fishnet
 * analysis (lila modules/tree/src/main/Info.scala `LineMaxPlies = 12`; modules/fishnet JsonApi reads
 * `pvList take Info.LineMaxPlies`). A stock fishnet client sends the whole PV; replaying the rest would
 * cost the server time for moves no review shows (issue 44 item 1).
 */
export const PV_KEPT_PLIES = 12;
/** At most this many faults are named in one refusal (a garbage body would list hundreds). */
const MAX_FAULTS = 8;

export type SubmissionCheck =
  | { ok: true; complete: true; positions: StoredPosition[] }
  | { ok: true; complete: false; done: number }
  | { ok: false; faults: string[] };

/**
 * Checks a submission against the job's moves. A progress report (some entries null) is checked
 * entry by entry and answers how many positions are done; a complete one answers the positions to
 * store, in the engine pool's own form (a terminal position stored without lines, as the pool stores it).
 */
export function checkSubmission(startFen: string, movesUci: readonly string[], entries: readonly SubmittedEntry[], bounds: SubmissionBounds): SubmissionCheck {
  let positions;
  try {
    positions = gamePositions(startFen, movesUci);
  } catch {
    return { ok: false, faults: ['the job’s moves do not replay'] };
  }
  if (entries.length !== positions.length) {
    return { ok: false, faults: [`analysis has ${entries.length} entries; this job has ${positions.length} positions (one per move, plus the start)`] };
  }
  const faults: string[] = [];
  const stored: StoredPosition[] = [];
  let pending = 0;
  for (const p of positions) {
    if (faults.length >= MAX_FAULTS) break;
    const e = entries[p.index];
    const at = `analysis[${p.index}]`;
    if (e === null) {
      pending++;
      continue;
    }
    const known = bounds.known.get(p.index);
    if ('skipped' in e) {
      if (known) stored.push(known);
      else faults.push(`${at}: skipped, but position ${p.index} is not in skipPositions`);
      continue;
    }
    // A searched entry for a known position is taken as searched: the server's list may have grown since the
    // job was handed out (an answer learned from another job meanwhile), and a fresh search is never worse.
    const fault = checkEntry(p.fen, e, bounds);
    if (fault) {
      faults.push(`${at}${fault}`);
      continue;
    }
    const pv = splitPv(e.pv);
    const score = 'cp' in e.score ? { cp: e.score.cp, mate: null } : { cp: null, mate: e.score.mate };
    const lines: EngineLine[] = p.terminal ? [] : [{ multiPv: 1, score, pv, depth: e.depth }];
    stored.push({ index: p.index, fen: p.fen, lines, terminal: p.terminal, depth: p.terminal ? 0 : e.depth, nodes: p.terminal ? 0 : (e.nodes ?? 0) });
  }
  if (faults.length) return { ok: false, faults };
  if (pending) return { ok: true, complete: false, done: positions.length - pending };
  return { ok: true, complete: true, positions: stored };
}

/** The kept part of a PV (PV_KEPT_PLIES); the rest is never read. */
function splitPv(pv: string | undefined): string[] {
  return (pv ?? '').split(' ', PV_KEPT_PLIES * 2).filter(Boolean).slice(0, PV_KEPT_PLIES);
}

/** What is wrong with one searched entry (a suffix naming the field), or null. */
function checkEntry(fen: string, e: SubmittedPosition, bounds: SubmissionBounds): string | null {
  const board = boardAt(fen)!;
  const stuck = board.moves().length === 0;
  const pv = splitPv(e.pv);
  if (stuck) {
    // Stockfish answers a position without moves at depth 0 with no PV: mate 0 when mated, cp 0 when stalemated.
    if (pv.length) return '.pv: the position has no legal move, so it has no PV';
    const mated = board.inCheck();
    if (mated && !('mate' in e.score && e.score.mate === 0)) return '.score: the side to move is checkmated; expected {"mate": 0}';
    if (!mated && !('cp' in e.score && e.score.cp === 0)) return '.score: the side to move is stalemated; expected {"cp": 0}';
    return null;
  }
  if (!pv.length) return '.pv: missing; the position has legal moves';
  for (let i = 0; i < pv.length; i++) {
    if (!playUci(board, pv[i])) return `.pv: move ${i + 1} (${pv[i].slice(0, 12)}) is not legal from where the PV has reached`;
  }
  if ('mate' in e.score && e.score.mate === 0) return '.score: mate 0 means the side to move is mated, and it is not';
  if (e.depth < 1) return '.depth: a search of a position with moves reaches depth 1 at least';
  if (e.nodes !== undefined && e.nodes < 1) return '.nodes: a search visits one node at least';
  if (e.nodes !== undefined && e.nodes > NODE_SLACK * bounds.nodesAsked) return `.nodes: ${e.nodes} is more than ${NODE_SLACK} × the ${bounds.nodesAsked} nodes asked`;
  // No bound on `time`: a slow machine's honest search is as good as a fast one's at the same nodes (issue 44 item 3);
  // the lease, extended by progress, is what bounds a slow worker (services/workers/jobs.ts).
  return null;
}

import type { Colour } from '../../chess/types.js';
import type { PersonalCtx } from '../../context.js';
import { ApiError } from '../../errors.js';
import { normaliseLine } from '../games/index.js';
import { ownerPawnsAfterPlies, ownerReviewDerivations } from '../review/index.js';
import { STATS_CAP } from './chessStats.js';
import { meanOf, round2, scorePercent } from '../common/index.js';

/** One move played from the position, with what followed it in the owner's games. */
export interface TreeMove {
  san: string;
  /** The line including this move, for list_games lineMoves. */
  lineMoves: string;
  games: number;
  win: number;
  draw: number;
  loss: number;
  /** Points / games in percent, a draw counting half (one decimal). */
  score: number;
  /** Mean effective accuracy (platform, else this project's review) over the games that have one. */
  averageAccuracy: { games: number; average: number | null };
  /** Mean evaluation after the move, owner's view in pawns (±5 cap), over reviewed games. */
  averageEvalAfter: { games: number; pawns: number | null };
}

export interface OpeningTree {
  colour: Colour;
  moves: string[];
  lineMoves: string;
  /** Games (of this colour, with moves) that reached the position. */
  games: number;
  score: number | null;
  /** Of those, games whose recorded moves end here (no next move is known). */
  endedHere: number;
  nextMoves: TreeMove[];
  /** At most this many of the most recent games are read, as for get_chess_stats. */
  cap: number;
  capped: boolean;
  rules: string;
}

interface Row {
  san_moves: string;
  result: 'win' | 'draw' | 'loss';
  accuracy: number | null;
  moves_key: string | null;
}

const MAX_PREFIX_PLIES = 60;

/** One game as the tree reads it: its SAN mainline, its result from the tree's player's side. */
export interface TreeGame {
  sanMoves: string;
  result: 'win' | 'draw' | 'loss';
  accuracy: number | null;
  /** The tree player's evaluation (pawns) after ply `ply`, where the game is reviewed; null otherwise. */
  evalAfter: ((ply: number) => number | null) | null;
}

/**
 * The next moves after `prefix` over games that start with it (the caller has matched the prefix):
 * the one tree builder, for the owner's own games and for a scouted player's (src/services/prep).
 */
export function treeFromGames(games: readonly TreeGame[], prefix: readonly string[]): { win: number; draw: number; endedHere: number; nextMoves: TreeMove[] } {
  const ply = prefix.length; // the next move is ply `ply + 1`
  const groups = new Map<string, { rows: TreeGame[]; evals: number[] }>();
  let win = 0;
  let draw = 0;
  let endedHere = 0;
  for (const r of games) {
    if (r.result === 'win') win += 1;
    else if (r.result === 'draw') draw += 1;
    const next = r.sanMoves.split(' ')[ply];
    if (!next) {
      endedHere += 1;
      continue;
    }
    const g = groups.get(next) ?? { rows: [], evals: [] };
    g.rows.push(r);
    const pawns = r.evalAfter ? r.evalAfter(ply + 1) : null;
    if (pawns !== null) g.evals.push(pawns);
    groups.set(next, g);
  }
  const nextMoves: TreeMove[] = [...groups.entries()].map(([san, g]) => {
    const w = g.rows.filter((r) => r.result === 'win').length;
    const d = g.rows.filter((r) => r.result === 'draw').length;
    const acc = g.rows.flatMap((r) => (r.accuracy === null ? [] : [r.accuracy]));
    return {
      san,
      lineMoves: [...prefix, san].join(' '),
      games: g.rows.length,
      win: w,
      draw: d,
      loss: g.rows.length - w - d,
      score: scorePercent(w, d, g.rows.length)!,
      averageAccuracy: (({ count, mean }) => ({ games: count, average: mean }))(meanOf(acc)),
      averageEvalAfter: (({ count, mean }) => ({ games: count, pawns: mean }))(meanOf(g.evals, round2)),
    };
  });
  nextMoves.sort((a, b) => b.games - a.games || a.san.localeCompare(b.san));
  return { win, draw, endedHere, nextMoves };
}

/** A tree's `moves` argument as the normalised line and its moves; 400 for anything but SAN from move 1. */
export function treeLine(moves: string): { line: string; prefix: string[] } {
  const line = moves.trim() ? normaliseLine(moves) : '';
  const prefix = line ? line.split(' ') : [];
  if (prefix.length > MAX_PREFIX_PLIES) throw new ApiError(400, `moves: at most ${MAX_PREFIX_PLIES} plies`);
  if (prefix.some((m) => !/^[A-Za-z0-9+#=\-]{2,8}$/.test(m))) throw new ApiError(400, 'moves: expected space-separated SAN moves from move 1');
  return { line, prefix };
}

/**
 * The opening tree of the owner's own games with `colour`: after `moves` (SAN from move 1), each
 * next move played, with games, results, accuracy and, from reviewed games, the evaluation after it.
 * A prefix is matched on whole moves exactly as list_games lineMoves matches it, so every figure
 * can be checked with list_games.
 */
export function openingTree(ctx: PersonalCtx, colour: Colour, moves: string): OpeningTree {
  const { line, prefix } = treeLine(moves);
  const rangeSql = line ? 'AND san_moves >= ? AND san_moves < ?' : '';
  const params: unknown[] = [ctx.user.id, colour, ...(line ? [line, `${line}!`] : []), STATS_CAP + 1];
  const rows = ctx.store.sqlite
    .prepare(
      `SELECT san_moves, result, coalesce(platform_accuracy, review_accuracy) AS accuracy, moves_key
         FROM games WHERE user_id = ? AND colour = ? AND san_moves IS NOT NULL AND san_moves != '' ${rangeSql}
        ORDER BY played_at DESC, id DESC LIMIT ?`,
    )
    .all(...params) as Row[];
  const capped = rows.length > STATS_CAP;
  if (capped) rows.length = STATS_CAP;

  const reviews = ownerReviewDerivations(
    ctx.store,
    ctx.user.id,
    rows.flatMap((r) => (r.moves_key ? [r.moves_key] : [])),
  );
  const games: TreeGame[] = rows.map((r) => {
    const review = r.moves_key ? reviews.get(r.moves_key) : undefined;
    return {
      sanMoves: r.san_moves,
      result: r.result,
      accuracy: r.accuracy,
      evalAfter: review ? (ply: number) => ownerPawnsAfterPlies(review, colour, [ply])[0] : null,
    };
  });
  const { win, draw, endedHere, nextMoves } = treeFromGames(games, prefix);
  return {
    colour,
    moves: prefix,
    lineMoves: line,
    games: rows.length,
    score: scorePercent(win, draw, rows.length),
    endedHere,
    nextMoves,
    cap: STATS_CAP,
    capped,
    rules:
      `Games where the owner had ${colour} and whose recorded moves (full PGN or the recorded opening line) start with these moves, matched on whole SAN moves as list_games lineMoves; ` +
      `the ${STATS_CAP} most recent at most. score = (wins + draws/2) / games in percent; averageAccuracy over games with an accuracy; ` +
      "averageEvalAfter = mean engine evaluation of the position after the move, the owner's point of view, in pawns clamped to ±5, over reviewed games.",
  };
}

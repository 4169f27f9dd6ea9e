import type { z } from 'zod';
import type { DeviationRow, RepertoireDeviations } from '../../../schemas/prep.js';
import { MAX_FOLLOWED_PLIES, TRANSPOSITION_SLACK_PLIES, walkRepertoireSteps, type RepertoireBook } from '../../chess/repertoire.js';
import type { Colour } from '../../chess/types.js';
import type { PersonalCtx } from '../../context.js';
import { inSlices, meanOf, memoByOwner, round2, scorePercent } from '../common/index.js';
import { ownerPawnsAfterPlies, ownerReviewDerivations } from '../review/index.js';
import { STATS_CAP } from '../stats/index.js';
import { loadRepertoire } from './repertoire.js';

type Row = z.infer<typeof DeviationRow>;
type Deviations = z.infer<typeof RepertoireDeviations>;

const ROWS_LIMIT = 100;
const GROUP_LIMIT = 20;

interface GameRow {
  id: string;
  played_at: string;
  opponent: string;
  result: 'win' | 'draw' | 'loss';
  san_moves: string;
  moves_key: string | null;
}

interface Group {
  lineMoves: string;
  san: string;
  prepared: string[];
  results: Array<'win' | 'draw' | 'loss'>;
  evals: number[];
}

function groupView(g: Group): Deviations['ownDeviations'][number] {
  const win = g.results.filter((r) => r === 'win').length;
  const draw = g.results.filter((r) => r === 'draw').length;
  const { count, mean } = meanOf(g.evals, round2);
  return {
    lineMoves: g.lineMoves,
    san: g.san,
    prepared: g.prepared,
    games: g.results.length,
    win,
    draw,
    loss: g.results.length - win - draw,
    score: scorePercent(win, draw, g.results.length)!,
    evalAfter: { games: count, pawns: mean },
  };
}

/**
 * The owner's games with `colour` against the declared repertoire of that colour: for each game the first
 * move that left it for good (matched by position: a transposition into the repertoire counts as in it),
 * whose move it was, the result and, for a reviewed game, the owner's evaluation after that move (from the
 * stored review derivation); then the positions most often left, the owner's own deviations worst first,
 * and the opponents' moves the repertoire has no answer to. Computed once per change of what it reads (the
 * owner's games, their reviews and study games, their repertoire: ownerMemo's history, study and prep versions)
 * and served from memory until then (issue 37: it cost 377 ms a read for 5,000 games).
 */
export function repertoireDeviations(ctx: PersonalCtx, colour: Colour): Promise<Deviations> {
  // The memo keeps the promise: readers arriving while it is worked out share the one computation. The repertoire
  // is read first, outside it, so its 404 is thrown, not kept.
  return memoByOwner(
    ctx.store,
    ctx.user.id,
    `prep:deviations:${colour}`,
    () => {
      const { book } = loadRepertoire(ctx, colour);
      return computeDeviations(ctx, colour, book);
    },
    ['history', 'study', 'prep'],
  );
}

/** The deviations against `book`; the games are walked in slices (common/slices.ts), so other requests go on meanwhile. */
async function computeDeviations(ctx: PersonalCtx, colour: Colour, book: RepertoireBook): Promise<Deviations> {
  const games = ctx.store.sqlite
    .prepare(
      `SELECT id, played_at, opponent, result, san_moves, moves_key FROM games
        WHERE user_id = ? AND colour = ? AND san_moves IS NOT NULL AND san_moves != ''
        ORDER BY played_at DESC, id DESC LIMIT ?`,
    )
    .all(ctx.user.id, colour, STATS_CAP + 1) as GameRow[];
  const capped = games.length > STATS_CAP;
  if (capped) games.length = STATS_CAP;
  const reviews = ownerReviewDerivations(ctx.store, ctx.user.id, games.flatMap((g) => (g.moves_key ? [g.moves_key] : [])));

  const rows: Row[] = [];
  const left = new Map<string, { lineMoves: string; prepared: string[]; games: number; byOwner: number; byOpponent: number }>();
  const own = new Map<string, Group>();
  const theirs = new Map<string, Group>();
  let inRepertoire = 0;
  let ended = 0;
  const walks = await inSlices(walkRepertoireSteps(book, colour, games.map((g) => g.san_moves)));
  for (const [i, g] of games.entries()) {
    const walk = walks[i];
    let deviation: Row['deviation'] = null;
    if (walk.status === 'in-repertoire') inRepertoire += 1;
    else if (walk.status === 'repertoire-ended') ended += 1;
    else {
      const review = g.moves_key ? reviews.get(g.moves_key) : undefined;
      const evalAfter = review ? ownerPawnsAfterPlies(review, colour, [walk.ply])[0] : null;
      const lineMoves = g.san_moves.split(' ', walk.lastBookPly).join(' ');
      deviation = { ply: walk.ply, san: walk.san, by: walk.by, lineMoves, prepared: walk.prepared, evalAfter };
      const at = left.get(walk.positionKey) ?? { lineMoves, prepared: walk.prepared, games: 0, byOwner: 0, byOpponent: 0 };
      at.games += 1;
      if (walk.by === 'owner') at.byOwner += 1;
      else at.byOpponent += 1;
      left.set(walk.positionKey, at);
      const groups = walk.by === 'owner' ? own : theirs;
      const key = `${walk.positionKey}|${walk.san}`;
      const group = groups.get(key) ?? { lineMoves, san: walk.san, prepared: walk.prepared, results: [], evals: [] };
      group.results.push(g.result);
      if (evalAfter !== null) group.evals.push(evalAfter);
      groups.set(key, group);
    }
    if (rows.length < ROWS_LIMIT) {
      rows.push({ gameId: g.id, playedAt: g.played_at, opponent: g.opponent, result: g.result, status: walk.status, lastBookPly: walk.lastBookPly, deviation });
    }
  }
  const ownViews = [...own.values()].map(groupView);
  const theirViews = [...theirs.values()].map(groupView);
  const evalOrder = (x: { evalAfter: { pawns: number | null } }) => x.evalAfter.pawns ?? Infinity;
  return {
    colour,
    games: games.length,
    inRepertoire,
    repertoireEnded: ended,
    ownerDeviations: ownViews.reduce((n, v) => n + v.games, 0),
    opponentDeviations: theirViews.reduce((n, v) => n + v.games, 0),
    rows,
    linesMostOftenLeft: [...left.values()].sort((a, b) => b.games - a.games || a.lineMoves.localeCompare(b.lineMoves)).slice(0, GROUP_LIMIT),
    ownDeviations: ownViews
      .sort((a, b) => a.score - b.score || evalOrder(a) - evalOrder(b) || b.games - a.games || a.lineMoves.localeCompare(b.lineMoves))
      .slice(0, GROUP_LIMIT),
    opponentsUnanswered: theirViews.sort((a, b) => b.games - a.games || a.score - b.score || a.lineMoves.localeCompare(b.lineMoves)).slice(0, GROUP_LIMIT),
    cap: STATS_CAP,
    capped,
    rules:
      `The owner's games as ${colour} with moves (the ${STATS_CAP} most recent at most) against the declared ${colour} repertoire, matched by position (placement, side to move, castling), ` +
      'so a game that transposes into the repertoire is in it. A game deviates at the move after its last position in the repertoire, when the repertoire prepares a move there; ' +
      `a game is followed while at most ${TRANSPOSITION_SLACK_PLIES} plies past its last position in the repertoire (a transposition back into it), to ply ${MAX_FOLLOWED_PLIES} at most (still in the repertoire there: in it); ` +
      'when it prepares none the repertoire ended (not a deviation); when the game never left it, in-repertoire. ' +
      "evalAfter: the owner's engine evaluation after the deviating move in pawns (±5 cap), from the stored review, null when the game is not reviewed. " +
      'ownDeviations: worst score first, then worst mean evaluation; opponentsUnanswered: most frequent first.',
  };
}

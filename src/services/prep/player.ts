import type { z } from 'zod';
import type { PlayerReport, ScoutTree } from '../../../schemas/prep.js';
import type { Colour } from '../../chess/types.js';
import type { PersonalCtx } from '../../context.js';
import { ApiError } from '../../errors.js';
import { memoByOwner, round1, scorePercent } from '../common/index.js';
import { treeFromGames, treeLine } from '../stats/index.js';
import { eachLine, lineTrie, nodeScore } from './lineTrie.js';
import { meetingPoints, ownerMeetingSide } from './meetings.js';
import { scoutRuns } from './scout.js';
import { findScout, scoutGamesOf, type ScoutGame, type ScoutProviderId, type ScoutRow } from './scoutStore.js';

type Report = z.infer<typeof PlayerReport>;

/** Names the ways to start a scout open to every caller: an agent reads the player resource (issue 38). */
export const notScouted = (provider: string, username: string) =>
  new ApiError(404, `no scout of ${provider} player ${username}; reading chess-footprint://players/${provider}/${username} starts one (as does Scout on the dashboard's Prep page)`);

/** The owner's scout of the player, or 404 exactly as for a player nobody scouted. */
export function ownScout(ctx: PersonalCtx, provider: ScoutProviderId, username: string): ScoutRow {
  const row = findScout(ctx.store, ctx.user.id, provider, username);
  if (!row) throw notScouted(provider, username.toLowerCase());
  return row;
}

function tally(games: readonly ScoutGame[]) {
  const win = games.filter((g) => g.result === 'win').length;
  const draw = games.filter((g) => g.result === 'draw').length;
  return { games: games.length, win, draw, loss: games.length - win - draw, score: scorePercent(win, draw, games.length) };
}

const WORST_PLIES = 12;
const WORST_MIN_GAMES = 3;
const WORST_LIMIT = 5;
const FORM_GAMES = 10;

/**
 * The lines where they score worst: every line of at most WORST_PLIES plies that at least WORST_MIN_GAMES
 * of their games with that colour follow, left out when one move after it carries all its games (the
 * longer line says the same), lowest score first, then most games.
 */
function worstLines(games: readonly ScoutGame[]): Array<{ lineMoves: string; games: number; score: number }> {
  const out: Array<{ lineMoves: string; games: number; score: number }> = [];
  eachLine(lineTrie(games, WORST_PLIES), (n, line) => {
    if (n.games < WORST_MIN_GAMES) return;
    if ([...n.children.values()].some((c) => c.games === n.games)) return;
    out.push({ lineMoves: line.join(' '), games: n.games, score: nodeScore(n)! });
  });
  return out.sort((a, b) => a.score - b.score || b.games - a.games || a.lineMoves.localeCompare(b.lineMoves)).slice(0, WORST_LIMIT);
}

/** Rating after each rated game with a rating, by time class, oldest to newest. */
function ratingTrend(games: readonly ScoutGame[]): Report['ratingTrend'] {
  const byClass = new Map<string, ScoutGame[]>();
  for (const g of [...games].reverse()) {
    if (!g.rated || g.rating === null) continue;
    byClass.set(g.timeClass, [...(byClass.get(g.timeClass) ?? []), g]);
  }
  return [...byClass.entries()]
    .map(([timeClass, gs]) => {
      const monthly = new Map<string, number>();
      for (const g of gs) monthly.set(g.playedAt.slice(0, 7), g.rating!);
      const first = gs[0];
      const last = gs[gs.length - 1];
      return {
        timeClass,
        games: gs.length,
        first: { date: first.playedAt, rating: first.rating! },
        last: { date: last.playedAt, rating: last.rating! },
        change: last.rating! - first.rating!,
        monthly: [...monthly.entries()].map(([month, rating]) => ({ month, rating })),
      };
    })
    .sort((a, b) => b.games - a.games || a.timeClass.localeCompare(b.timeClass));
}

/**
 * Everything known of a scouted player: results by colour and time class, form, rating, worst lines, and where the
 * owner's games meet theirs. All but the scout's live state is computed once per change of what it reads (the
 * owner's games; their scouts and scouted games: ownerMemo's history and prep versions) and served from memory until
 * then (issue 37: it cost 577 ms a read beside 5,000 games of the owner's). Their games are the scout's window (the
 * newest bounds.maxGames of the last bounds.months months, kept so when stored).
 */
export async function playerReport(ctx: PersonalCtx, row: ScoutRow): Promise<Report> {
  const scout = scoutRuns(ctx).statusOf(row);
  // Readers arriving while it is worked out share the one computation (the memo keeps the promise).
  const rest = await memoByOwner(ctx.store, ctx.user.id, `prep:player:${row.id}`, () => reportOf(ctx, row), ['history', 'prep']);
  return { scout, ...rest };
}

/** The report but the scout's state; the replays run in slices (common/slices.ts), so other requests go on meanwhile. */
async function reportOf(ctx: PersonalCtx, row: ScoutRow): Promise<Omit<Report, 'scout'>> {
  const games = scoutGamesOf(ctx.store, row.id);
  const [ownerWhite, ownerBlack] = [await ownerMeetingSide(ctx.store, ctx.user.id, 'white'), await ownerMeetingSide(ctx.store, ctx.user.id, 'black')];
  const byColour = (c: Colour) => games.filter((g) => g.colour === c);
  const classes = new Map<string, ScoutGame[]>();
  for (const g of games) classes.set(g.timeClass, [...(classes.get(g.timeClass) ?? []), g]);
  const recent = games.slice(0, FORM_GAMES);
  const withMoves = (c: Colour) => byColour(c).filter((g) => g.sanMoves !== '');
  return {
    window: games.length ? { from: games[games.length - 1].playedAt, to: games[0].playedAt } : null,
    byColour: { white: tally(byColour('white')), black: tally(byColour('black')) },
    timeClasses: [...classes.entries()]
      .map(([timeClass, gs]) => ({ timeClass, ...tally(gs) }))
      .sort((a, b) => b.games - a.games || a.timeClass.localeCompare(b.timeClass)),
    recentForm: { ...tally(recent), results: recent.map((g) => (g.result === 'win' ? 'W' : g.result === 'draw' ? 'D' : 'L')).join('') },
    ratingTrend: ratingTrend(games),
    worstLines: { white: worstLines(withMoves('white')), black: worstLines(withMoves('black')) },
    meetingPoints: {
      white: await meetingPoints(ownerBlack, withMoves('white')),
      black: await meetingPoints(ownerWhite, withMoves('black')),
    },
    rules:
      'Their public games as the source published them (standard chess, finished), the newest bounds.maxGames of the last bounds.months months; colour, results and scores are theirs. ' +
      'score = (wins + draws/2) / games in percent. ratingTrend: their rating after each rated game, by time class. ' +
      `worstLines: lines of at most ${WORST_PLIES} plies followed by at least ${WORST_MIN_GAMES} of their games, lowest score first (a line whose games all continue with one move is shown as the longer line). ` +
      `meetingPoints.white: positions (matched by position, so move orders do not matter) reached in the first 16 plies both by their games as white and by the owner's own games as black; ` +
      "meetingPoints.black the reverse; the positions where games of either side part from the common ground come first. The owner's score there is the owner's, theirs is theirs.",
  };
}

/** Their opening tree with `colour` after `moves`: each next move with games, results, score and its share of their games at that point. */
export function scoutTree(ctx: PersonalCtx, row: ScoutRow, colour: Colour, moves: string): z.infer<typeof ScoutTree> {
  const { line, prefix } = treeLine(moves);
  const games = scoutGamesOf(ctx.store, row.id).filter(
    (g) => g.colour === colour && g.sanMoves !== '' && (!line || g.sanMoves === line || g.sanMoves.startsWith(`${line} `)),
  );
  const { win, draw, endedHere, nextMoves } = treeFromGames(
    games.map((g) => ({ sanMoves: g.sanMoves, result: g.result, accuracy: null, evalAfter: null })),
    prefix,
  );
  return {
    provider: row.provider,
    username: row.username,
    colour,
    moves: prefix,
    lineMoves: line,
    games: games.length,
    score: scorePercent(win, draw, games.length),
    endedHere,
    nextMoves: nextMoves.map((m) => ({
      san: m.san,
      lineMoves: m.lineMoves,
      games: m.games,
      win: m.win,
      draw: m.draw,
      loss: m.loss,
      score: m.score,
      share: round1((100 * m.games) / games.length),
    })),
    rules:
      `Their stored games as ${colour} whose moves start with these (whole SAN moves). score = their (wins + draws/2) / games in percent; ` +
      'share = the games that went on with the move / the games that reached this point, in percent (games ending here take no move).',
  };
}

import type { z } from 'zod';
import type { StatTimeClass } from '../../../schemas/common.js';
import type { AtYourLevel, PeersLevel, PeersStatus, PeersView } from '../../../schemas/peers.js';
import type { Colour } from '../../chess/types.js';
import type { PersonalCtx } from '../../context.js';
import { ApiError } from '../../errors.js';
import type { ExplorerAnswer } from '../../sources/lichess/explorer.js';
import { revealSourceToken } from '../../store/storedSecrets.js';
import { memoByOwner, statTimeClass } from '../common/index.js';
import { STATS_CAP, treeLine } from '../stats/index.js';
import { ownerLines } from '../prep/index.js';
import { listConnections } from '../sync/index.js';
import { cachedAnswers, fetchMonth, MASTERS, type AnswerKind } from './answers.js';
import { comparePosition, findingsOf, OWNER_MIN_GAMES, PEER_MIN_GAMES, RARE_SHARE, SCORE_GAP } from './findings.js';
import { isRatingGroup, lichessFromChesscom, ratingGroup, TIME_CLASS_SPEEDS } from './level.js';
import { ownerPositions, PEER_MAX_POSITIONS, PEER_MIN_OWNER_GAMES, PEER_PLIES, type OwnerPosition } from './positions.js';
import { EXPLORER_ELSEWHERE } from './explorerLease.js';
import { failureStamp } from './failures.js';
import { peerRuns, type PeerJob } from './runs.js';

type Level = z.infer<typeof PeersLevel>;
type Status = z.infer<typeof PeersStatus>;

/** The one sentence without a token: nothing is fetched. */
export const NO_TOKEN =
  "lichess's opening explorer needs a lichess token (since March 2026): add one with `chess-footprint connect lichess USER --token …` (a personal token with no scopes, from https://lichess.org/account/oauth/token) or on the dashboard's settings page; nothing was fetched.";

/** Findings kept in a view (the resource) and in get_chess_stats's block. */
const VIEW_FINDINGS = 20;
const STATS_FINDINGS = 5;

export interface PeersOptions {
  moves?: string;
  /** A rating group the owner names instead of their rating. */
  band?: number;
  timeClass?: StatTimeClass;
  masters?: boolean;
}

export const PEERS_RULES =
  `Positions: where the owner is to move, their move being one of the first ${PEER_PLIES} plies, reached by at least ${PEER_MIN_OWNER_GAMES} of their games of that colour (all their games with moves, the ${STATS_CAP} newest at most), most games first, at most ${PEER_MAX_POSITIONS}; matched by position, so transpositions share the explorer's answer. ` +
  "Peers: lichess's opening explorer (the lichess database) at the owner's rating group for the time class (their lichess rating there, else their chess.com rating mapped to lichess's scale by lichess = (chess.com + 929.4548) / 1.3728, the fit of 305,539 players with both ratings published on r/chess in April 2025, else the band named) and its speed (bullet, blitz, rapid, classical for standard); " +
  'the time class is the one with most of the owner\'s games unless named. Fetched once a month per position and filter, one request at a time at lichess. ' +
  `share = the move's games / the position's games, percent; score = the side to move's (wins + draws/2) / games, percent, shown from ${PEER_MIN_GAMES} games; bestScoring = the highest such score (ties: more games). ` +
  `Findings (the owner's moves played in ${OWNER_MIN_GAMES} games or more): scoresWorse when the peers' best-scoring other move scores ${SCORE_GAP} points or more above the owner's move (both from ${PEER_MIN_GAMES} games), ranked by pointsAtStake = the owner's games × the gap / 100; rare when the peers play the move in under ${RARE_SHARE}% of their games there (a move the explorer does not list counts as 0%). ` +
  "The owner's score is theirs over their games with the move; masters (when asked): the most played move of lichess's masters database.";

interface Plan {
  positions: OwnerPosition[];
  level: Level | null;
  levelMessage: string | null;
}

/** The time class with most of the owner's games (ties: the faster), null with no games. */
function mainTimeClass(ctx: PersonalCtx): StatTimeClass | null {
  const rows = ctx.store.sqlite.prepare('SELECT provider, time_class AS tc, count(*) AS n FROM games WHERE user_id = ? GROUP BY provider, time_class').all(ctx.user.id) as Array<{ provider: string; tc: string; n: number }>;
  const by = new Map<StatTimeClass, number>();
  for (const r of rows) {
    const tc = statTimeClass(r.provider, r.tc);
    by.set(tc, (by.get(tc) ?? 0) + r.n);
  }
  const order: StatTimeClass[] = ['bullet', 'blitz', 'rapid', 'standard'];
  let best: StatTimeClass | null = null;
  for (const tc of order) if ((by.get(tc) ?? 0) > (best ? by.get(best)! : 0)) best = tc;
  return best;
}

/** The owner's rating after their newest rated game of the time class on a site (rating before + its change). */
function latestRating(ctx: PersonalCtx, provider: 'siteA' | 'siteB', tc: StatTimeClass): number | null {
  const rows = ctx.store.sqlite
    .prepare(
      `SELECT time_class AS raw, user_rating AS rating, rating_delta AS delta FROM games
        WHERE user_id = ? AND provider = ? AND rated = 1 AND user_rating IS NOT NULL ORDER BY played_at DESC LIMIT 1000`,
    )
    .all(ctx.user.id, provider) as Array<{ raw: string; rating: number; delta: number | null }>;
  const r = rows.find((x) => statTimeClass(provider, x.raw) === tc);
  return r ? r.rating + (r.delta ?? 0) : null;
}

function levelOf(ctx: PersonalCtx, opts: PeersOptions): { level: Level | null; message: string | null } {
  const timeClass = opts.timeClass ?? mainTimeClass(ctx) ?? 'blitz';
  const speeds = [...TIME_CLASS_SPEEDS[timeClass]];
  if (opts.band !== undefined) {
    if (!isRatingGroup(opts.band)) throw new ApiError(400, 'band must be one of lichess\'s rating groups: 0, 1000, 1200, 1400, 1600, 1800, 2000, 2200, 2500');
    return { level: { timeClass, ratings: [opts.band], speeds, from: `named band ${opts.band}` }, message: null };
  }
  const lichess = latestRating(ctx, 'siteB', timeClass);
  if (lichess !== null) return { level: { timeClass, ratings: [ratingGroup(lichess)], speeds, from: `lichess ${timeClass} rating ${lichess}` }, message: null };
  const chesscom = latestRating(ctx, 'siteA', timeClass);
  if (chesscom !== null) {
    const mapped = lichessFromChesscom(chesscom);
    return { level: { timeClass, ratings: [ratingGroup(mapped)], speeds, from: `chess.com ${timeClass} rating ${chesscom}, ${mapped} on lichess's scale` }, message: null };
  }
  return { level: null, message: `No lichess or chess.com ${timeClass} rating to place you: name a band (band=1600, one of 0, 1000, 1200 … 2200, 2500) or a time class you play rated (timeClass=…).` };
}

function planFor(ctx: PersonalCtx, colour: Colour, opts: PeersOptions): Plan {
  const positions = memoByOwner(ctx.store, ctx.user.id, `peers positions ${colour}`, () => ownerPositions(ownerLines(ctx.store, ctx.user.id, colour), colour));
  const { level, message } = levelOf(ctx, opts);
  return { positions, level, levelMessage: message };
}

/** The owner's lichess token in clear (memory only), from their lichess connection; null without one. */
function lichessToken(ctx: PersonalCtx): string | null {
  for (const c of listConnections(ctx, ctx.user.id, 'siteB')) {
    const token = revealSourceToken(ctx.store, c.sourceToken);
    if (token) return token;
  }
  return null;
}

const lichessKind = (level: Level): AnswerKind => ({ database: 'lichess', ratings: level.ratings.join(','), speeds: level.speeds.join(',') });

interface Computed {
  status: Status;
  level: Level | null;
  compared: Array<{ owner: OwnerPosition; position: ReturnType<typeof comparePosition>; peers: ExplorerAnswer }>;
}

/**
 * The owner's positions of `colour` beside the cached answers, and the state of their fetch. With `fetch`,
 * missing answers are fetched in the background (as a scout starts), nothing without a lichess token.
 */
function compute(ctx: PersonalCtx, colour: Colour, opts: PeersOptions, fetch: boolean): Computed {
  const { positions, level, levelMessage } = planFor(ctx, colour, opts);
  const month = fetchMonth(ctx.clock.now());
  const status: Status = { state: 'ok', message: null, positions: positions.length, cached: 0, progress: null, month };
  const compared: Computed['compared'] = [];
  if (!level) return { status: { ...status, state: 'no-level', message: levelMessage }, level, compared };
  const keys = positions.map((p) => p.key);
  const kind = lichessKind(level);
  const peers = cachedAnswers(ctx.store, ctx.user.id, kind, month, keys);
  const masters = opts.masters ? cachedAnswers(ctx.store, ctx.user.id, MASTERS, month, keys) : null;
  for (const p of positions) {
    const a = peers.get(p.key);
    if (!a) continue;
    const m = masters ? (masters.get(p.key) ?? null) : undefined;
    compared.push({ owner: p, position: comparePosition(p, colour, a, m), peers: a });
  }
  status.cached = positions.filter((p) => peers.has(p.key)).length;
  const jobs: PeerJob[] = [];
  for (const p of positions) {
    if (!peers.has(p.key)) jobs.push({ key: p.key, fen: p.fen, kind, ratings: level.ratings as PeerJob['ratings'], speeds: level.speeds as PeerJob['speeds'] });
    if (masters && !masters.has(p.key)) jobs.push({ key: p.key, fen: p.fen, kind: MASTERS, ratings: [], speeds: [] });
  }
  // Two positions of the list can be one position (transpositions): ask it once.
  const unique = [...new Map(jobs.map((j) => [`${j.kind.database} ${j.key}`, j])).values()];
  if (!unique.length) return { status, level, compared };

  const token = lichessToken(ctx);
  if (!token) return { status: { ...status, state: 'no-token', message: NO_TOKEN }, level, compared };
  const runs = peerRuns(ctx);
  const runKey = `${ctx.user.id} ${colour} ${kind.ratings} ${kind.speeds} ${opts.masters ? 'masters' : ''}`;
  let running = runs.running(runKey);
  const failed = runs.failure(runKey);
  // A refused token is not offered again until it changes (the failure keeps the token's fingerprint).
  if (!running && failed?.state === 'token-refused' && runs.refusedToken(runKey, token)) return { status: { ...status, state: 'token-refused', message: failed.message }, level, compared };
  // Another process is fetching this view: its fetch is reported (the positions it has stored are counted above).
  if (!running && runs.runningElsewhere(runKey)) return { status: { ...status, state: 'fetching', message: EXPLORER_ELSEWHERE }, level, compared };
  // A failed run is retried once its back-off has passed (failures.ts), not at every read: until then the reason is the answer.
  const waiting = failed?.state === 'error' && ctx.clock.now().toISOString() < failed.retryAt;
  if (!running && waiting) {
    return { status: { ...status, state: 'error', message: `${failed.message} (${failed.failures} failed ${failed.failures === 1 ? 'try' : 'tries'} in a row; the next read after ${failed.retryAt} tries again)` }, level, compared };
  }
  if (!running && fetch) {
    try {
      // A retry is the same work as the run that failed: not charged to the scout bucket again.
      runs.start(ctx.user.id, runKey, token, unique, !failed);
      running = runs.running(runKey);
    } catch (err) {
      // The owner's scout bucket is spent: serve what is cached, and say when to come back.
      if (!(err instanceof ApiError) || err.status !== 429) throw err;
      return { status: { ...status, state: 'partial', message: `${err.message}; what is cached is shown` }, level, compared };
    }
  }
  const lastTry = failed ? ` The last try failed: ${failed.message}` : '';
  if (running) return { status: { ...status, state: running.state, progress: running.progress, message: `Fetching from lichess one position at a time: read again for the rest.${lastTry}` }, level, compared };
  if (failed) return { status: { ...status, state: failed.state, message: failed.message }, level, compared };
  return { status: { ...status, state: 'partial', message: 'Not all positions are fetched yet: read chess-footprint://openings/{colour}/peers to fetch them.'.replace('{colour}', colour) }, level, compared };
}

/** chess-footprint://openings/{colour}/peers: the position after `moves`, the ranked findings, the fetch state. */
export function peersView(ctx: PersonalCtx, colour: Colour, opts: PeersOptions = {}): PeersView {
  const { line } = treeLine(opts.moves ?? '');
  const { status, level, compared } = compute(ctx, colour, opts, true);
  const here = compared.find((c) => c.owner.line === line);
  return {
    colour,
    level,
    status,
    position: here ? here.position : null,
    findings: findingsOf(compared.map((c) => ({ position: c.position, owner: c.owner, peers: c.peers, colour }))).slice(0, VIEW_FINDINGS),
    rules: PEERS_RULES,
  };
}

/** A line with move numbers: "d4 d5 c4" → "1.d4 d5 2.c4". */
function numbered(sans: readonly string[]): string {
  return sans.map((san, i) => (i % 2 === 0 ? `${i / 2 + 1}.${san}` : san)).join(' ');
}

/** The owner's move after the line, numbered as it stands alone: "3...c5" or "4.Nf3". */
function numberedMove(plies: number, san: string): string {
  return plies % 2 === 0 ? `${plies / 2 + 1}.${san}` : `${Math.ceil(plies / 2)}...${san}`;
}

/** One finding as a sentence (get_chess_stats's block). */
export function findingSentence(f: z.infer<typeof PeersView>['findings'][number]): string {
  const sans = f.lineMoves ? f.lineMoves.split(' ') : [];
  const where = sans.length ? `After ${numbered(sans)}, ` : 'From the start, ';
  const peers = f.peers ? `peers play it in ${f.peers.share}% of their games${f.peers.score === null ? '' : ` and score ${f.peers.score}%`}` : 'peers do not play it';
  const alt = f.alternative ? `; their best-scoring ${f.alternative.san} scores ${f.alternative.score}% (${f.alternative.games} games)` : '';
  const why = f.reasons.map((r) => (r === 'scoresWorse' ? 'scores worse' : 'rare')).join(', ');
  const stake = f.pointsAtStake === null ? '' : `; ${f.pointsAtStake} points at stake`;
  return `${where}${numberedMove(sans.length, f.san)} (your ${f.games} games, ${f.score}%): ${peers}${alt} (${why}${stake}).`;
}

/** get_chess_stats's atYourLevel block: what is cached, as sentences for each colour; reading it fetches nothing. */
export function peersInsight(ctx: PersonalCtx): z.infer<typeof AtYourLevel> {
  const side = (colour: Colour): string[] => {
    const { status, level, compared } = compute(ctx, colour, {}, false);
    const out: string[] = [];
    if (level) out.push(`Peers: lichess players rated ${level.ratings.join(', ')} and up to the next group, ${level.speeds.join(', ')} (from ${level.from}); ${status.cached} of ${status.positions} positions compared (${status.month}).`);
    if (status.message) out.push(status.message);
    const findings = findingsOf(compared.map((c) => ({ position: c.position, owner: c.owner, peers: c.peers, colour }))).slice(0, STATS_FINDINGS);
    for (const f of findings) out.push(findingSentence(f));
    if (!findings.length && compared.length) out.push(`No finding: in the positions compared your moves score within ${SCORE_GAP} points of the peers' best and are not rare at your level.`);
    return out;
  };
  return { white: side('white'), black: side('black') };
}

/** What the cached view depends on beyond the owner's games and account: the answers stored and the runs going. */
export function peersStamp(ctx: PersonalCtx): string {
  const r = ctx.store.sqlite.prepare('SELECT count(*) AS n, max(fetched_at) AS at FROM explorer_answers WHERE user_id = ?').get(ctx.user.id) as { n: number; at: string | null };
  return `${r.n} ${r.at ?? ''} ${peerRuns(ctx).activeFor(ctx.user.id)} ${failureStamp(ctx.store, ctx.user.id, ctx.clock.now())} ${fetchMonth(ctx.clock.now())}`;
}

import { z } from 'zod';
import { parsePgnMainline, PgnError } from '../../chess/pgn.js';
import { isPublishedAccuracy, lichessReview, usableAnalysis, type LichessAnalysisEntry } from './review.js';
import { describeIssue, SourceFormatError, type SourceRecord, type SourceSkip } from '../types.js';
import type { CurrentPerf } from '../../../schemas/profile.js';

const Player = z.object({
  user: z.object({ name: z.string(), id: z.string() }).optional(),
  aiLevel: z.number().optional(),
  rating: z.number().int().optional(),
  ratingDiff: z.number().int().optional(),
  // The player's analysis figures are the review's, never the game's: a malformed one is left out, not an error.
  analysis: z.object({ accuracy: z.number().optional() }).optional().catch(undefined),
});

/** The fields of the NDJSON game object we read (GameJson.yaml); others are ignored. */
export const LichessGame = z.object({
  id: z.string().min(1),
  rated: z.boolean(),
  variant: z.string(),
  speed: z.string(),
  createdAt: z.number().int(),
  status: z.string(),
  players: z.object({ white: Player, black: Player }),
  winner: z.enum(['white', 'black']).optional(),
  opening: z.object({ eco: z.string(), name: z.string() }).optional(),
  moves: z.string().optional(),
  clocks: z.array(z.number().int()).optional(),
  pgn: z.string().optional(),
  daysPerTurn: z.number().int().optional(),
  clock: z.object({ initial: z.number(), increment: z.number() }).optional(),
  // Read apart by the review (usableAnalysis): whatever it holds, it never refuses the game.
  analysis: z.unknown().optional(),
  arenaTour: z.object({ name: z.string().optional() }).optional(),
  swissTour: z.object({ name: z.string().optional(), id: z.string().optional() }).optional(),
  tournament: z.string().optional(),
  initialFen: z.string().optional(),
});
export type LichessGame = z.infer<typeof LichessGame>;

// Statuses that carry no result at all: nothing was played to a finish.
const NO_RESULT = new Set(['created', 'started', 'aborted', 'noStart']);

const pad = (n: number) => String(n).padStart(2, '0');
const hms = (s: number) => `${Math.floor(s / 3600)}:${pad(Math.floor((s % 3600) / 60))}:${pad(Math.floor(s % 60))}`;

function playerName(p: z.infer<typeof Player>): string {
  if (p.user) return p.user.name;
  return p.aiLevel ? `Stockfish level ${p.aiLevel}` : 'Anonymous';
}

/**
 * Writes the PGN lichess would have sent with pgnInJson (used when an export line has only `moves`):
 * standard tags, `[%eval]` from `analysis`, `[%clk]` from `clocks` in whole seconds as lila prints them.
 */
function pgnFromJson(g: LichessGame, analysis: readonly LichessAnalysisEntry[] | null, result: string, when: Date): string {
  const w = g.players.white;
  const b = g.players.black;
  const date = `${when.getUTCFullYear()}.${pad(when.getUTCMonth() + 1)}.${pad(when.getUTCDate())}`;
  const tags: Array<[string, string | undefined]> = [
    ['Event', `${g.rated ? 'rated' : 'casual'} ${g.speed} game`],
    ['Site', `https://lichess.org/${g.id}`],
    ['Date', date],
    ['White', playerName(w)],
    ['Black', playerName(b)],
    ['Result', result],
    ['GameId', g.id],
    ['UTCDate', date],
    ['UTCTime', `${pad(when.getUTCHours())}:${pad(when.getUTCMinutes())}:${pad(when.getUTCSeconds())}`],
    ['WhiteElo', w.rating?.toString()],
    ['BlackElo', b.rating?.toString()],
    ['Variant', 'Standard'],
    ['TimeControl', g.clock ? `${g.clock.initial}+${g.clock.increment}` : '-'],
    ['ECO', g.opening?.eco],
    ['Opening', g.opening?.name],
    ['FEN', g.initialFen],
  ];
  const head = tags.filter(([, v]) => v !== undefined).map(([k, v]) => `[${k} "${v!.replace(/"/g, '\\"')}"]`);
  const sans = (g.moves ?? '').split(' ').filter(Boolean);
  const body = sans.map((san, i) => {
    const num = i % 2 === 0 ? `${i / 2 + 1}. ` : `${(i - 1) / 2 + 1}... `;
    const cmds: string[] = [];
    const a = analysis?.[i];
    if (a?.eval !== undefined) cmds.push(`[%eval ${a.eval / 100}]`);
    else if (a?.mate !== undefined) cmds.push(`[%eval #${a.mate}]`);
    const c = g.clocks?.[i];
    if (c !== undefined) cmds.push(`[%clk ${hms(Math.floor(c / 100))}]`);
    return `${num}${san}${cmds.length ? ` { ${cmds.join(' ')} }` : ''}`;
  });
  return `${head.join('\n')}\n\n${[...body, result].join(' ')}\n`;
}

/**
 * One NDJSON export line → a game of `username` (case-insensitive), or the reason it is not stored. With
 * `review: false` (the scout, which keeps no reviews) the export's analysis is not read at all.
 */
export function parseLichessGame(raw: unknown, username: string, opts: { review?: boolean } = {}): SourceRecord | SourceSkip {
  const parsedLine = LichessGame.safeParse(raw);
  const idHint = typeof raw === 'object' && raw && 'id' in raw ? String((raw as { id: unknown }).id) : '?';
  if (!parsedLine.success) throw new SourceFormatError(describeIssue(`lichess game ${idHint}`, parsedLine.error));
  const g = parsedLine.data;
  if (g.variant !== 'standard') return { skip: 'variant', sourceId: g.id };
  if (NO_RESULT.has(g.status)) return { skip: g.status === 'started' ? 'unfinished' : 'aborted', sourceId: g.id };
  const me = username.toLowerCase();
  const colour = g.players.white.user?.id === me ? 'white' : g.players.black.user?.id === me ? 'black' : null;
  if (!colour) return { skip: 'not-owner', sourceId: g.id };
  const own = g.players[colour];
  const opp = g.players[colour === 'white' ? 'black' : 'white'];
  const result = g.winner === undefined ? 'draw' : g.winner === colour ? 'win' : 'loss';
  const resultToken = g.winner === undefined ? '1/2-1/2' : g.winner === 'white' ? '1-0' : '0-1';
  const when = new Date(g.createdAt);
  const analysis = opts.review === false ? null : usableAnalysis(g.analysis);
  const text = g.pgn ?? pgnFromJson(g, analysis, resultToken, when);
  let parsed;
  try {
    // Replayed once, without positions: lichess names the opening itself.
    parsed = parsePgnMainline(text, { requireMoves: false });
  } catch (err) {
    if (err instanceof PgnError) throw new SourceFormatError(`lichess game ${g.id}: moves do not replay: ${err.message}`);
    throw err;
  }
  // The JSON clocks are centiseconds (the PGN only whole seconds): keep the finer reading when they line up.
  const clocksSeconds = g.clocks && g.clocks.length === parsed.plies.length ? g.clocks.map((c) => c / 100) : undefined;
  const tournament = g.arenaTour?.name ?? g.swissTour?.name ?? null;
  return {
    game: {
      provider: 'siteB',
      sourceId: g.id,
      playedAt: when.toISOString(),
      colour,
      result,
      opponent: playerName(opp),
      opponentRating: opp.rating ?? null,
      userRating: own.rating ?? null,
      ratingDelta: own.ratingDiff ?? null,
      timeClass: g.speed,
      timeControl: g.clock ? `${g.clock.initial}+${g.clock.increment}` : g.daysPerTurn ? `${g.daysPerTurn}d` : '-',
      rated: g.rated,
      eco: g.opening?.eco ?? null,
      opening: g.opening?.name ?? null,
      event: tournament,
      movesCount: 0, // replaced by the moves columns
      // Outside lichess's 0–100 it is not lichess's figure (issue 44 item 8): not shown, and the review is not imported.
      platformAccuracy: isPublishedAccuracy(own.analysis?.accuracy) ? own.analysis.accuracy : null,
      sourceUrl: `https://lichess.org/${g.id}${colour === 'black' ? '/black' : ''}`,
    },
    pgn: parsed.plies.length ? { text, parsed, clocksSeconds } : null,
    // lichess's server analysis, when someone asked lichess for one: stored as the game's review (analysedAt is
    // stamped when the sync stores it).
    review:
      analysis && parsed.plies.length
        ? lichessReview(g.id, parsed.startFen, parsed.plies.map((p) => p.uci), analysis, '', {
            white: g.players.white.analysis?.accuracy ?? null,
            black: g.players.black.analysis?.accuracy ?? null,
          })
        : null,
  };
}

// Human-readable history names → the rating_points series (raw time classes, "puzzle").
const HISTORY_SERIES: Record<string, string> = {
  UltraBullet: 'ultraBullet',
  Bullet: 'bullet',
  Blitz: 'blitz',
  Rapid: 'rapid',
  Classical: 'classical',
  Correspondence: 'correspondence',
  Puzzles: 'puzzle',
};

const RatingHistory = z.array(z.object({ name: z.string(), points: z.array(z.tuple([z.number(), z.number(), z.number(), z.number()])) }));

/** Rating history → points per series; months are 0-based in the payload. Variant perfs are left out. */
export function parseRatingHistory(raw: unknown): Array<{ series: string; date: string; rating: number }> {
  const r = RatingHistory.safeParse(raw);
  if (!r.success) throw new SourceFormatError(describeIssue('lichess rating history', r.error));
  const out: Array<{ series: string; date: string; rating: number }> = [];
  for (const perf of r.data) {
    const series = HISTORY_SERIES[perf.name];
    if (!series) continue;
    for (const [y, m, d, rating] of perf.points) out.push({ series, date: `${y}-${pad(m + 1)}-${pad(d)}`, rating });
  }
  return out;
}

const PuzzleLine = z.object({
  date: z.number().int(),
  win: z.boolean(),
  puzzle: z.object({ id: z.string(), rating: z.number().int().optional() }).optional(),
  // Older lila lines: {id, date, win, puzzleRating}.
  id: z.string().optional(),
  puzzleRating: z.number().int().optional(),
});

export function parsePuzzleAttempt(raw: unknown): { puzzleId: string; attemptedAt: string; win: boolean; puzzleRating: number | null } {
  const r = PuzzleLine.safeParse(raw);
  if (!r.success) throw new SourceFormatError(describeIssue('lichess puzzle activity', r.error));
  const p = r.data;
  const puzzleId = p.puzzle?.id ?? p.id;
  if (!puzzleId) throw new SourceFormatError('lichess puzzle activity: a line has no puzzle id');
  return { puzzleId, attemptedAt: new Date(p.date).toISOString(), win: p.win, puzzleRating: p.puzzle?.rating ?? p.puzzleRating ?? null };
}

const Perf = z.object({ games: z.number().int(), rating: z.number(), rd: z.number().optional(), prog: z.number().optional(), prov: z.boolean().optional() });
// Storm, racer and streak are {runs, score}: not ratings, so not kept.
const UserPublic = z.object({ perfs: z.record(z.string(), z.unknown()).optional() });

/** `/api/user/{name}` → current perfs (field names per lichess's User schema: games, rating, rd, prog, prov). */
export function parseCurrentPerfs(raw: unknown): Record<string, CurrentPerf> {
  const r = UserPublic.safeParse(raw);
  if (!r.success) throw new SourceFormatError(describeIssue('lichess profile', r.error));
  const out: Record<string, CurrentPerf> = {};
  for (const [key, value] of Object.entries(r.data.perfs ?? {})) {
    const p = Perf.safeParse(value);
    if (!p.success) continue;
    const { games, rating, rd, prog, prov } = p.data;
    out[key] = { rating: Math.round(rating), rd: rd === undefined ? null : Math.round(rd), games, prog: prog === undefined ? null : Math.round(prog), provisional: prov === true };
  }
  return out;
}

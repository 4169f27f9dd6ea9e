import { z } from 'zod';
import { providerInput } from './common.js';

// Shapes of preparation (issue 29): a scouted public player and the owner's repertoire. Served by the
// prep routes (/api/v1/prep/…), the MCP resources chess-footprint://players/… and …://repertoire/…,
// and the dashboard's Prep page. Not MCP tools: the 29 stay as they are.

/** The sources a public player can be scouted on; the project's own names, with the sites' as aliases. */
export const SCOUT_PROVIDERS = ['siteA', 'siteB'] as const;
export const ScoutProvider = providerInput(SCOUT_PROVIDERS)
  .describe('siteA (chess.com) or siteB (lichess); "chess.com", "chesscom" and "lichess" are accepted too');

/**
 * A username as both sites allow them (letters, digits, _ and -, 2 to 30 characters), never a URL:
 * the server builds the source's address itself from its configured base URL.
 */
export const ScoutUsername = z
  .string()
  .regex(/^[A-Za-z0-9][A-Za-z0-9_-]{1,29}$/, { message: '2 to 30 letters, digits, _ or -, starting with a letter or digit' })
  .describe('The player’s username on that site (case-insensitive)');

export const PlayerInput = z.object({ provider: ScoutProvider, username: ScoutUsername }).strict();

export const ScoutInput = z
  .object({
    provider: ScoutProvider,
    username: ScoutUsername,
    maxGames: z.number().int().min(1).max(2000).optional().describe('Keep at most this many of their most recent games (default 500)'),
    months: z.number().int().min(1).max(36).optional().describe('Only games of the last this many months (default 12)'),
  })
  .strict();

const Colour = z.enum(['white', 'black']);
export const ColourInput = z.object({ colour: Colour.describe('white or black') }).strict();

export const ScoutState = z.enum(['never-fetched', 'queued', 'fetching', 'ok', 'error', 'demo']);

export const ScoutStatus = z
  .object({
    provider: z.enum(SCOUT_PROVIDERS).describe('siteA (chess.com) or siteB (lichess)'),
    username: z.string().describe('Lower-cased username'),
    state: ScoutState.describe('queued/fetching while a fetch runs; ok after the last one finished; error with message when it failed; demo: a made-up player of the demo store, never fetched'),
    message: z.string().nullable().describe('Why the last fetch failed, or a note on it; null when none'),
    fetchedAt: z.string().nullable().describe('When the last fetch finished (ISO 8601), null before the first'),
    games: z.number().int().describe('Games stored for this player'),
    bounds: z.object({ maxGames: z.number().int(), months: z.number().int() }).describe('The newest maxGames games of the last months months are kept'),
    progress: z
      .object({
        phase: z.string().describe('What the fetch is doing, e.g. "games" or "archive 2026/10"'),
        fetched: z.number().int().describe('Games read from the source so far in this fetch'),
        stored: z.number().int().describe('New games stored so far in this fetch'),
        done: z.number().int().nullable(),
        total: z.number().int().nullable(),
      })
      .nullable()
      .describe('The running fetch, null when none runs'),
    lastFetch: z
      .object({ fetched: z.number().int(), stored: z.number().int(), requests: z.number().int() })
      .nullable()
      .describe('What the last finished fetch read, newly stored, and how many requests it made to the source'),
  })
  .describe('A scouted player’s fetch state');

const Score = z.number().nullable().describe('(wins + draws/2) / games in percent, the scouted player’s side; null with no games');

export const ScoutTreeMove = z.object({
  san: z.string(),
  lineMoves: z.string().describe('The line including this move (moves= of the next step)'),
  games: z.number().int(),
  win: z.number().int(),
  draw: z.number().int(),
  loss: z.number().int(),
  score: z.number().describe('Their score after this move, percent'),
  share: z.number().describe('Percent of their games at this point that went on with this move'),
});

export const ScoutTree = z.object({
  provider: z.enum(SCOUT_PROVIDERS),
  username: z.string(),
  colour: Colour.describe('The scouted player’s colour'),
  moves: z.array(z.string()),
  lineMoves: z.string(),
  games: z.number().int().describe('Their games with this colour that reached the position'),
  score: Score,
  endedHere: z.number().int(),
  nextMoves: z.array(ScoutTreeMove),
  rules: z.string(),
});

const LineScore = z.object({ lineMoves: z.string(), games: z.number().int(), score: z.number() });

export const MeetingPoint = z.object({
  lineMoves: z.string().describe('One move order reaching the position (from the owner’s games)'),
  ply: z.number().int(),
  fen: z.string().describe('The position'),
  owner: z.object({ games: z.number().int(), score: Score }).describe('The owner’s games reaching it, the owner’s score'),
  them: z.object({ games: z.number().int(), score: Score }).describe('Their games reaching it, their score'),
});

const ResultCount = z.object({ games: z.number().int(), win: z.number().int(), draw: z.number().int(), loss: z.number().int(), score: Score });

export const PlayerReport = z.object({
  scout: ScoutStatus,
  window: z.object({ from: z.string(), to: z.string() }).nullable().describe('playedAt of their oldest and newest stored game'),
  byColour: z.object({ white: ResultCount, black: ResultCount }),
  timeClasses: z.array(ResultCount.extend({ timeClass: z.string() })).describe('Results by time class, most played first'),
  recentForm: ResultCount.extend({ results: z.string().describe('W/D/L of their last games, newest first') }).describe('Their last 10 games'),
  ratingTrend: z
    .array(
      z.object({
        timeClass: z.string(),
        games: z.number().int().describe('Rated games with a rating'),
        first: z.object({ date: z.string(), rating: z.number().int() }),
        last: z.object({ date: z.string(), rating: z.number().int() }),
        change: z.number().int(),
        monthly: z.array(z.object({ month: z.string(), rating: z.number().int() })).describe('Their rating after the last rated game of each month'),
      }),
    )
    .describe('Rating after each rated game (as the source records it), by time class'),
  worstLines: z.object({ white: z.array(LineScore), black: z.array(LineScore) }).describe('The lines (12 plies at most) where they score worst, at least 3 games'),
  meetingPoints: z
    .object({ white: z.array(MeetingPoint), black: z.array(MeetingPoint) })
    .describe('white: their games as white against the owner’s as black; black: the reverse. Positions both reach in the first 16 plies, where they part'),
  rules: z.string(),
});

export const ScoutList = z.object({ scouts: z.array(ScoutStatus) });
export const Removed = z.object({ removed: z.boolean() });

// ── Repertoire ────────────────────────────────────────────────────────────

/** The longest repertoire PGN a declaration takes (characters). */
export const REPERTOIRE_PGN_MAX_CHARS = 500_000;

export const RepertoireInput = z
  .object({
    colour: Colour.describe('white or black'),
    pgn: z.string().min(1).max(REPERTOIRE_PGN_MAX_CHARS).optional().describe('A PGN with variations (one or several games, from the initial position)'),
    lines: z.array(z.string().min(1).max(2000)).min(1).max(500).optional().describe('Lines typed in, each SAN from move 1 ("e4 e5 Nf3 Nc6 Bb5")'),
    studyGameId: z.string().min(1).max(100).optional().describe('A study game (list_study_games) whose PGN, variations included, is the repertoire'),
  })
  .strict()
  .refine((v) => [v.pgn, v.lines, v.studyGameId].filter((x) => x !== undefined).length === 1, { message: 'give exactly one of pgn, lines or studyGameId' });

export const Repertoire = z.object({
  colour: Colour,
  source: z.enum(['pgn', 'lines', 'study', 'demo']).describe('What it was declared from; demo: made up by the demo store (declaring one replaces it)'),
  studyGameId: z.string().nullable(),
  updatedAt: z.string(),
  positions: z.number().int().describe('Positions the repertoire reaches'),
  lines: z.number().int().describe('Its lines (positions with no prepared move)'),
  maxPly: z.number().int(),
  pgn: z.string().describe('What it was declared with'),
});

const EvalAfter = z.number().nullable().describe('The owner’s evaluation (pawns, ±5) after the deviating move, from the stored review; null when not reviewed');

export const DeviationRow = z.object({
  gameId: z.string(),
  playedAt: z.string(),
  opponent: z.string(),
  result: z.enum(['win', 'draw', 'loss']),
  status: z.enum(['in-repertoire', 'repertoire-ended', 'deviation']).describe('in-repertoire: every move stayed in it; repertoire-ended: its line ran out; deviation: a move left it'),
  lastBookPly: z.number().int().describe('The last ply whose position is in the repertoire'),
  deviation: z
    .object({
      ply: z.number().int(),
      san: z.string(),
      by: z.enum(['owner', 'opponent']),
      lineMoves: z.string().describe('The game’s moves before the deviating move'),
      prepared: z.array(z.string()).describe('The repertoire’s moves there'),
      evalAfter: EvalAfter,
    })
    .nullable(),
});

const DeviationGroup = z.object({
  lineMoves: z.string().describe('The moves before the deviation (one move order reaching the position)'),
  san: z.string(),
  prepared: z.array(z.string()),
  games: z.number().int(),
  win: z.number().int(),
  draw: z.number().int(),
  loss: z.number().int(),
  score: z.number().describe('The owner’s score, percent'),
  evalAfter: z.object({ games: z.number().int(), pawns: z.number().nullable() }).describe('Mean owner’s evaluation after the move over reviewed games'),
});

export const RepertoireDeviations = z.object({
  colour: Colour,
  games: z.number().int().describe('The owner’s games with this colour and moves'),
  inRepertoire: z.number().int(),
  repertoireEnded: z.number().int(),
  ownerDeviations: z.number().int(),
  opponentDeviations: z.number().int(),
  rows: z.array(DeviationRow).describe('The most recent games (100 at most), newest first'),
  linesMostOftenLeft: z
    .array(z.object({ lineMoves: z.string(), prepared: z.array(z.string()), games: z.number().int(), byOwner: z.number().int(), byOpponent: z.number().int() }))
    .describe('Positions the games left the repertoire from, most often first'),
  ownDeviations: z.array(DeviationGroup).describe('The owner’s own moves out of the repertoire, worst score first, then worst evaluation'),
  opponentsUnanswered: z.array(DeviationGroup).describe('Opponents’ moves the repertoire has no answer to, most frequent first'),
  cap: z.number().int(),
  capped: z.boolean(),
  rules: z.string(),
});

import { z } from 'zod';
import { Colour, providerInput, SYNCED_PROVIDERS, SyncedProvider } from './common.js';
import { CONNECTION_STATUSES } from './profile.js';

// Shapes of the dashboard's settings API (/api/v1/settings/…). These are not MCP tools: they manage
// the account itself (sign-in sessions, tokens, connections), which an agent has no business doing.

const Timestamp = z.string().describe('ISO 8601 timestamp (UTC)');
const NullableTimestamp = z.string().nullable().describe('ISO 8601 timestamp (UTC), or null');

export const Empty = z.object({}).strict();

export const SignInInput = z
  .object({
    code: z.string().min(1).max(200).optional().describe('The one-time code from the link `serve` or `init` printed (…/?code=…)'),
    token: z.string().min(1).max(200).optional().describe('A personal access token (cfp_…), as an alternative to a code'),
  })
  .strict()
  .refine((v) => (v.code === undefined) !== (v.token === undefined), { message: 'give exactly one of code or token' });

export const Account = z
  .object({
    displayName: z.string().describe('The account’s display name'),
    email: z.string().describe('The account’s email address'),
  })
  .describe('The signed-in account');

export const SignedIn = z
  .object({
    account: Account,
    via: z.enum(['session', 'token']).describe('What authenticated this request: the session cookie or a bearer token'),
    sessionId: z.string().nullable().describe('The current session’s id (null for a bearer token)'),
    expiresAt: NullableTimestamp.describe('When the current session ends (null for a bearer token)'),
  })
  .describe('Who is signed in');

export const Session = z
  .object({
    id: z.string().describe('Session id (for revoking)'),
    method: z.enum(['link', 'token']).describe('How it was opened: a one-time link or a pasted token'),
    userAgent: z.string().nullable().describe('The browser’s User-Agent at sign-in (truncated)'),
    createdAt: Timestamp,
    lastUsedAt: NullableTimestamp.describe('Last request made with it (minute precision)'),
    expiresAt: Timestamp,
    current: z.boolean().describe('True for the session making this request'),
  })
  .describe('A live dashboard session');
export const SessionList = z.object({ sessions: z.array(Session) });

export const IdInput = z.object({ id: z.string().min(1).max(100).describe('Id from the matching list') }).strict();
export const Revoked = z.object({ revoked: z.literal(true) }).describe('The item was revoked; it stops working on the next request');

export const TokenRow = z
  .object({
    id: z.string().describe('Token id (for revoking)'),
    name: z.string().describe('What the token is for'),
    createdAt: Timestamp,
    lastUsedAt: NullableTimestamp.describe('Last request made with it, where recorded'),
    revokedAt: NullableTimestamp,
  })
  .describe('A personal access token (never the secret)');
export const TokenList = z.object({ tokens: z.array(TokenRow) });
export const CreateTokenInput = z
  .object({ name: z.string().trim().min(1).max(100).describe('What the token is for, e.g. "Claude Desktop"') })
  .strict();
export const CreatedToken = z
  .object({
    id: z.string(),
    name: z.string(),
    createdAt: Timestamp,
    token: z.string().describe('The token itself (cfp_…): shown this once, only its fingerprint is stored'),
  })
  .describe('A new token');

export const ConnectionRow = z
  .object({
    provider: providerInput(SYNCED_PROVIDERS).describe('siteA = chess.com, siteB = lichess, fed = ECF (the sites\' names are accepted too)'),
    account: z.string().describe('Username (chess.com, lichess) or ECF rating code'),
    hasToken: z.boolean().describe('Whether a lichess API token is stored (the token itself is never returned)'),
    status: z.enum(CONNECTION_STATUSES).describe('never-synced, syncing, ok, error (see statusMessage), or demo (made-up demo data, never synced)'),
    statusMessage: z.string().nullable().describe('What the last sync said (an error or a note)'),
    connectedAt: Timestamp,
    lastSyncedAt: NullableTimestamp,
  })
  .describe('A connected source');
export const ConnectionList = z.object({ connections: z.array(ConnectionRow) });
export const ProviderInput = z.object({ provider: providerInput(SYNCED_PROVIDERS).describe('siteA = chess.com, siteB = lichess, fed = ECF (the sites\' names are accepted too)') }).strict();
export const ConnectInput = z
  .object({
    provider: SyncedProvider.describe('siteA = chess.com, siteB = lichess, fed = ECF'),
    account: z.string().trim().min(1).max(100).describe('chess.com or lichess username, or ECF rating code (e.g. 120787J)'),
    token: z
      .string()
      .trim()
      .max(200)
      .nullable()
      .optional()
      .describe('lichess only: a personal API token (lip_…) for faster syncs; null removes it; absent keeps it'),
  })
  .strict();
export const Removed = z.object({ removed: z.literal(true) }).describe('Removed; games already stored stay');

export const SyncInput = z.object({ provider: providerInput(SYNCED_PROVIDERS).optional().describe('Only this source (default: every connection)') }).strict();
export const SyncSourceResult = z.object({
  provider: SyncedProvider,
  ok: z.boolean(),
  error: z.string().nullable(),
  fetched: z.number().int(),
  stored: z.number().int(),
});
export const SyncRun = z
  .object({
    state: z.enum(['idle', 'running', 'done']).describe('idle: none since start; running; done: the last run finished'),
    startedAt: NullableTimestamp,
    finishedAt: NullableTimestamp,
    progress: z
      .object({
        provider: SyncedProvider,
        phase: z.string().describe('What is happening now, e.g. "archive 2025/03"'),
        fetched: z.number().int(),
        stored: z.number().int(),
        done: z.number().int().nullable().describe('Work units done, where the source tells (chess.com months)'),
        total: z.number().int().nullable(),
      })
      .nullable()
      .describe('The latest progress report of the running sync'),
    results: z.array(SyncSourceResult).describe('One entry per source finished in this run'),
  })
  .describe('The dashboard’s “sync now” run for this account');

const ReviewSubjectName = z
  .object({
    white: z.string().describe('White player (the account’s display name on its own side)'),
    black: z.string().describe('Black player'),
    date: z.string().nullable().describe('Date played, YYYY-MM-DD (a study game: its PGN Date header), or null'),
  })
  .nullable()
  .describe('The game, named; null if it was deleted meanwhile');

export const ReviewQueueStatus = z
  .object({
    queued: z.number().int().describe('This account’s reviews waiting'),
    running: z.number().int(),
    complete: z.number().int(),
    failed: z.number().int(),
    active: z
      .array(
        z.object({
          jobId: z.string(),
          subjectKind: z.enum(['game', 'study']),
          subjectId: z.string().describe('Game or study-game id'),
          status: z.enum(['queued', 'running']),
          position: z.number().int().describe('Place in the shared queue, 1 = next or running'),
          createdAt: Timestamp,
          subject: ReviewSubjectName,
          worker: z.string().nullable().describe('Who is reviewing it: a review worker’s key name, "this server" for a local engine, null while queued'),
          progress: z
            .object({
              done: z.number().int().describe('Positions the worker has reported searched (or skipped)'),
              total: z.number().int().describe('Positions in the game: one per move, plus the start'),
              note: z.string().describe('The same in words, with the time taken and, at its pace, left'),
            })
            .nullable()
            .describe('A review worker’s progress from its reports; null for a local engine or a queued review'),
        }),
      )
      .describe('Queued and running reviews, oldest first'),
    failedRecently: z
      .array(
        z.object({
          jobId: z.string(),
          subjectKind: z.enum(['game', 'study']),
          subjectId: z.string().describe('Game or study-game id'),
          finishedAt: Timestamp.nullable(),
          subject: ReviewSubjectName,
          note: z.string().describe('Why it failed (abandoned after its process stopped three times included), and the next step'),
        }),
      )
      .describe('The latest failed reviews (up to 10) whose subject has no review since, newest first'),
  })
  .describe('Review queue status for this account');

export const WorkerKeyList = z
  .object({
    workers: z.array(
      z.object({
        name: z.string().describe('The machine, as named at `worker-key create --name`'),
        createdAt: Timestamp,
        revokedAt: Timestamp.nullable(),
        lastContactAt: Timestamp.nullable().describe('Its latest request to /fishnet/; null: never connected'),
        connected: z.boolean().describe('Heard from in the last two minutes'),
        client: z.string().nullable().describe('The User-Agent of its latest request (the fishnet client and version)'),
        jobsDone: z.number().int().describe('Reviews it submitted and the server stored'),
        positionsDone: z.number().int(),
        positionsPerSecond: z.number().nullable().describe('Positions over the search time its stored reviews reported; null before the first'),
        jobsHeld: z.number().int().describe('Reviews it is working on now'),
      }),
    ),
  })
  .describe('The account’s review workers (fishnet clients), never their keys');

export const ClaudeConfig = z
  .object({
    mcpUrl: z.string().describe('This server’s MCP endpoint'),
    stdio: z.unknown().describe('claude_desktop_config.json for the stdio transport, exactly what `chess-footprint claude-config` prints (token placeholder)'),
    http: z.unknown().describe('for MCP clients that speak streamable HTTP: this server\'s MCP URL and the bearer header (token placeholder)'),
    tokenPlaceholder: z.string().describe('The text to replace with a token created above'),
    claudeCode: z.string().describe('The `claude mcp add` command that adds the same stdio entry to Claude Code (the token as a placeholder)'),
    writeCommand: z.string().describe('The command that writes the stdio entry into Claude Desktop\'s file, as this installation runs it (`node /abs/bin/chess-footprint.js …` in a clone, `chess-footprint …` when installed)'),
  })
  .describe('Ready-to-paste Claude Desktop configuration');

export const EmailStatus = z
  .object({
    configured: z.boolean().describe('Whether SMTP is set (CFP_SMTP_HOST and CFP_SMTP_FROM)'),
    host: z.string().nullable(),
    port: z.number().int().nullable(),
    tls: z.string().nullable().describe('starttls, implicit or none'),
    from: z.string().nullable(),
    authenticated: z.boolean().describe('Whether a user name is set (the password is never shown)'),
    recipient: z.string().describe('Where the weekly report goes: the account’s email'),
    setup: z.string().nullable().describe('When not configured: what to set to turn it on (the same words serve logs); null when configured'),
  })
  .describe('Weekly report email settings (read from the environment)');

export const OpeningTreeInput = z
  .object({
    colour: Colour.describe('The owner’s colour in the games: white or black'),
    moves: z.string().max(600).optional().describe('Space-separated SAN moves from move 1 (e.g. "e4 c5"); omit for the start position'),
  })
  .strict();

const TreeMove = z.object({
  san: z.string().describe('The next move, SAN'),
  lineMoves: z.string().describe('The line including this move, for list_games lineMoves'),
  games: z.number().int(),
  win: z.number().int(),
  draw: z.number().int(),
  loss: z.number().int(),
  score: z.number().describe('(wins + draws/2) / games, percent'),
  averageAccuracy: z.object({ games: z.number().int(), average: z.number().nullable() }).describe('Mean effective accuracy over the games that have one'),
  averageEvalAfter: z.object({ games: z.number().int(), pawns: z.number().nullable() }).describe("Mean evaluation after the move, the owner's view, pawns (±5 cap), over reviewed games"),
});

export const OpeningTreeView = z
  .object({
    colour: Colour,
    moves: z.array(z.string()).describe('The line, SAN moves from move 1'),
    lineMoves: z.string(),
    games: z.number().int().describe('Games of this colour with moves that reached the position'),
    score: z.number().nullable(),
    endedHere: z.number().int().describe('Of those, games whose recorded moves end here'),
    nextMoves: z.array(TreeMove).describe('Every next move played, most games first'),
    cap: z.number().int(),
    capped: z.boolean(),
    rules: z.string(),
  })
  .describe('The opening tree of the owner’s own games at one position (the chess-footprint://openings/{colour} resource)');

import { z } from 'zod';
import { SyncedProvider, Timestamp } from './common.js';

/** `demo`: a made-up account seeded by `demo` / `serve --demo`; its data is local and it is never synced. */
export const CONNECTION_STATUSES = ['never-synced', 'syncing', 'ok', 'error', 'demo'] as const;
export type ConnectionStatus = (typeof CONNECTION_STATUSES)[number];

/** The statusMessage of a demo connection (and what a sync of one answers). */
export const DEMO_CONNECTION_MESSAGE = 'demo data: a made-up account, never synced (connect a real account to replace it)';

/** One current rating as the source shows it on the account page (lichess `perfs.{key}`). */
export const CurrentPerf = z.object({
  rating: z.number().int().describe('The current rating in this perf (Glicko-2, as lichess shows it)'),
  rd: z.number().int().nullable().describe('Glicko-2 rating deviation'),
  games: z.number().int().describe('Rated games in this perf'),
  prog: z.number().int().nullable().describe('Rating progress over the last twelve games'),
  provisional: z.boolean().describe('lichess marks a rating provisional while its deviation is high'),
});

export type CurrentPerf = z.infer<typeof CurrentPerf>;

export const ConnectionDetails = z.object({
  perfs: z.record(z.string(), CurrentPerf).describe('Current ratings by lichess perf key (bullet, blitz, rapid, classical, correspondence, puzzle, …)'),
  fetchedAt: Timestamp.describe('When the source was asked'),
});
export type ConnectionDetails = z.infer<typeof ConnectionDetails>;

export const Connection = z.object({
  provider: SyncedProvider.describe('siteA = chess.com, siteB = lichess, fed = ECF over-the-board'),
  account: z.string().describe('Username (chess.com, lichess) or ECF reference code'),
  status: z.enum(CONNECTION_STATUSES).describe('never-synced, syncing, ok, error (see statusMessage), or demo (made-up demo data, never synced)'),
  statusMessage: z.string().nullable().describe('Why the last sync failed, when status is error; what a demo connection is, when status is demo'),
  lastSyncedAt: Timestamp.nullable().describe('End of the last successful sync; null before the first'),
  connectedAt: Timestamp.describe('When the source was connected'),
  details: ConnectionDetails.nullable().describe('Current ratings read at the last sync (lichess); null before it or for other sources'),
});

export const Profile = z
  .object({
    displayName: z.string().describe('The owner’s display name'),
    email: z.string().describe('The owner’s email address (weekly reports go there when mail is configured)'),
    memberSince: Timestamp.describe('When the account was created'),
    usernames: z
      .object({
        siteA: z.string().nullable().describe('chess.com username'),
        siteB: z.string().nullable().describe('lichess username'),
      })
      .describe('Online usernames'),
    connections: z.array(Connection).describe('Source connections (chess.com, lichess, ECF) with their sync state'),
    lastSyncedAt: Timestamp.nullable().describe('The oldest successful sync among connections: everything served is at least this fresh; null if a connection never synced or none exist'),
    totals: z
      .object({
        games: z.number().int().describe('Games stored, all providers'),
        connections: z.number().int().describe('Connected sources'),
      })
      .describe('What the store holds'),
  })
  .describe("The token owner's profile");
export type Profile = z.infer<typeof Profile>;

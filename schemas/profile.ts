import { z } from 'zod';
import { SyncedProvider, Timestamp } from './common.js';

/** `demo`: a made-up account seeded by `demo` / `serve --demo`; its data is local and it is never synced. */
export const CONNECTION_STATUSES = ['never-synced', 'syncing', 'ok', 'error', 'demo'] as const;
export type ConnectionStatus = (typeof CONNECTION_STATUSES)[number];

/** The statusMessage of a demo connection (and what a sync of one answers). */
export const DEMO_CONNECTION_MESSAGE = 'demo data: a made-up account, never synced (connect a real account to replace it)';

export const Connection = z.object({
  provider: SyncedProvider.describe('siteA = chess.com, siteB = lichess, fed = ECF over-the-board'),
  account: z.string().describe('Username (chess.com, lichess) or ECF reference code'),
  status: z.enum(CONNECTION_STATUSES).describe('never-synced, syncing, ok, error (see statusMessage), or demo (made-up demo data, never synced)'),
  statusMessage: z.string().nullable().describe('Why the last sync failed, when status is error; what a demo connection is, when status is demo'),
  lastSyncedAt: Timestamp.nullable().describe('End of the last successful sync; null before the first'),
  connectedAt: Timestamp.describe('When the source was connected'),
});

export const Profile = z
  .object({
    displayName: z.string(),
    email: z.string(),
    memberSince: Timestamp.describe('When the account was created'),
    usernames: z
      .object({
        siteA: z.string().nullable().describe('chess.com username'),
        siteB: z.string().nullable().describe('lichess username'),
      })
      .describe('Online usernames'),
    connections: z.array(Connection),
    lastSyncedAt: Timestamp.nullable().describe('The oldest successful sync among connections: everything served is at least this fresh; null if a connection never synced or none exist'),
    totals: z.object({
      games: z.number().int().describe('Games stored, all providers'),
      connections: z.number().int().describe('Connected sources'),
    }),
  })
  .describe("The token owner's profile");
export type Profile = z.infer<typeof Profile>;

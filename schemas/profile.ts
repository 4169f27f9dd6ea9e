import { z } from 'zod';
import { SyncedProvider, Timestamp } from './common.js';

export const CONNECTION_STATUSES = ['never-synced', 'syncing', 'ok', 'error'] as const;

export const Connection = z.object({
  provider: SyncedProvider.describe('siteA = chess.com, siteB = lichess, fed = ECF over-the-board'),
  account: z.string().describe('Username (chess.com, lichess) or ECF reference code'),
  status: z.enum(CONNECTION_STATUSES).describe('never-synced, syncing, ok, or error (see statusMessage)'),
  statusMessage: z.string().nullable().describe('Why the last sync failed, when status is error'),
  lastSyncedAt: Timestamp.nullable().describe('End of the last successful sync; null before the first'),
  connectedAt: Timestamp.describe('When the source was connected'),
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

import { and, asc, eq } from 'drizzle-orm';
import { revealSourceToken } from '../../store/storedSecrets.js';
import type { AppDeps } from '../../context.js';
import { DEMO_CONNECTION_MESSAGE } from '../../../schemas/profile.js';
import { inSiteTurn } from '../common/index.js';
import { describeSourceFailure, type FetchPurpose } from '../../sources/failure.js';
import { connections } from '../../store/schema/index.js';
import { syncChesscom } from './chesscom.js';
import { syncEcf } from './ecf.js';
import { syncLichess } from './lichess.js';
import type { Connection, SourceProvider, SourceSummary, SourceSyncContext, SyncOptions } from './types.js';

export type { SourceSummary, SyncOptions, SyncProgress } from './types.js';

const RUNNERS: Record<SourceProvider, (sc: SourceSyncContext) => Promise<void>> = {
  siteA: syncChesscom,
  siteB: syncLichess,
  fed: syncEcf,
};

function setStatus(deps: AppDeps, id: string, values: Partial<Pick<Connection, 'status' | 'statusMessage' | 'lastSyncedAt'>>): void {
  deps.store.sqlite.transaction(() => deps.store.db.update(connections).set(values).where(eq(connections.id, id)).run()).immediate();
}

/** The message stored on the connection: what failed, in words a player can act on. */
const SYNC_PURPOSE: FetchPurpose = { subject: 'account', activity: 'sync', afterwards: 'what was stored stays and the next sync resumes from there' };

/**
 * Syncs one connection: status `syncing` while it runs, then `ok` with `lastSyncedAt`, or `error`
 * with a message. Never throws for a source failure: the summary says what happened, and everything
 * stored before the failure is whole (batches commit with their cursor).
 */
export async function syncConnection(deps: AppDeps, connection: Connection, opts: SyncOptions = {}): Promise<SourceSummary> {
  const summary: SourceSummary = {
    provider: connection.provider,
    externalId: connection.externalId,
    ok: false,
    error: null,
    fetched: 0,
    stored: 0,
    skipped: {},
    monthsUnchanged: 0,
    ratingPoints: 0,
    puzzleAttempts: 0,
    notes: [],
  };
  const sc: SourceSyncContext = {
    deps,
    userId: connection.userId,
    // The lichess token is sealed at rest (src/store/secretKey.ts); the runners get it in clear, in memory only.
    connection: { ...connection, sourceToken: revealSourceToken(deps.store, connection.sourceToken) },
    opts,
    summary,
    progress: (phase, done = null, total = null) =>
      opts.onProgress?.({
        provider: connection.provider,
        phase,
        fetched: summary.fetched,
        stored: summary.stored,
        skipped: Object.values(summary.skipped).reduce((a, b) => a + b, 0),
        done,
        total,
      }),
  };
  if (connection.status === 'demo') {
    // Made-up accounts: syncing them would query real strangers' accounts on the real sites.
    summary.error = DEMO_CONNECTION_MESSAGE;
    return summary;
  }
  setStatus(deps, connection.id, { status: 'syncing', statusMessage: null });
  try {
    await inSiteTurn(deps.store, connection.provider, () => RUNNERS[connection.provider](sc));
    summary.ok = true;
    setStatus(deps, connection.id, { status: 'ok', statusMessage: summary.notes.length ? summary.notes.join('; ') : null, lastSyncedAt: deps.clock.now().toISOString() });
  } catch (err) {
    if (opts.signal?.aborted) {
      // Stopped (the server is shutting down): not the source's fault. Batches committed so far stay.
      summary.error = 'interrupted; the next sync resumes where this one stopped';
      setStatus(deps, connection.id, { status: connection.status === 'syncing' ? 'never-synced' : connection.status, statusMessage: connection.statusMessage });
      return summary;
    }
    summary.error = describeSourceFailure(connection.provider, err, SYNC_PURPOSE);
    setStatus(deps, connection.id, { status: 'error', statusMessage: summary.error });
  }
  return summary;
}

export function listConnections(deps: AppDeps, userId: string, provider?: SourceProvider): Connection[] {
  const where = provider ? and(eq(connections.userId, userId), eq(connections.provider, provider)) : eq(connections.userId, userId);
  return deps.store.db.select().from(connections).where(where).orderBy(asc(connections.provider)).all();
}

/** Syncs every connection of the user (or one source), one after another; a failing source does not stop the others. */
export async function syncUser(deps: AppDeps, userId: string, opts: SyncOptions & { provider?: SourceProvider } = {}): Promise<SourceSummary[]> {
  const out: SourceSummary[] = [];
  for (const c of listConnections(deps, userId, opts.provider)) {
    if (opts.signal?.aborted) break;
    out.push(await syncConnection(deps, c, opts));
  }
  return out;
}

import type { AppDeps } from '../../context.js';
import type { PoliteSettings, SourceClientOptions } from '../../sources/http.js';
import type { connections } from '../../store/schema/index.js';

export type Connection = typeof connections.$inferSelect;
export type SourceProvider = Connection['provider'];

export interface SyncProgress {
  provider: SourceProvider;
  /** What is happening now, e.g. "archive 2025/03" or "games". */
  phase: string;
  fetched: number;
  stored: number;
  skipped: number;
  /** Work units done / expected where the source tells (chess.com months), else null. */
  done: number | null;
  total: number | null;
}

export interface SyncOptions {
  /** Ignore cursors and validators: refetch everything (still never duplicates). */
  full?: boolean;
  onProgress?: (p: SyncProgress) => void;
  /** Waits (429 back-off); injectable so tests do not sleep a minute. */
  sleep?: (ms: number) => Promise<void>;
  signal?: AbortSignal;
  /** Games per transaction (lichess stream). */
  batchSize?: number;
}

export interface SourceSummary {
  provider: SourceProvider;
  externalId: string;
  ok: boolean;
  error: string | null;
  fetched: number;
  stored: number;
  /** Not stored, by reason: duplicate (already stored), variant, aborted, unfinished, not-owner. */
  skipped: Record<string, number>;
  /** chess.com months answered 304 or known complete. */
  monthsUnchanged: number;
  ratingPoints: number;
  puzzleAttempts: number;
  notes: string[];
}

export interface SourceSyncContext {
  deps: AppDeps;
  userId: string;
  connection: Connection;
  opts: SyncOptions;
  summary: SourceSummary;
  progress(phase: string, done?: number | null, total?: number | null): void;
}

export const defaultSleep = (ms: number) => new Promise<void>((r) => setTimeout(r, ms));

const REASONS = { 'rate-limited': 'answered 429', stalled: 'stalled', unreachable: 'could not be reached' } as const;

/**
 * The polite client's options for one source in this sync: base URL, timeouts and retry bounds from the
 * config, the sync's sleep and abort signal, and each wait noted once in the summary.
 */
export function clientFor(sc: SourceSyncContext, baseUrl: string, name: string, polite: Partial<PoliteSettings> = {}): SourceClientOptions {
  const { sources } = sc.deps.config;
  const noted = new Set<string>();
  return {
    baseUrl,
    userAgent: sources.userAgent,
    signal: sc.opts.signal,
    polite: {
      connectTimeoutMs: sources.connectTimeoutMs,
      idleTimeoutMs: sources.idleTimeoutMs,
      maxRetries: sources.maxRetries,
      maxRetryAfterSeconds: sources.maxRetryAfterSeconds,
      sleep: sc.opts.sleep ?? defaultSleep,
      onWait: ({ reason }) => {
        if (noted.has(reason)) return;
        noted.add(reason);
        sc.summary.notes.push(`${name} ${REASONS[reason]}: waited and repeated the request`);
      },
      ...polite,
    },
  };
}

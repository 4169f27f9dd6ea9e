import { eq, isNotNull } from 'drizzle-orm';
import type { Store } from './db.js';
import { connections, weeklyReports } from './schema/index.js';
import { isSealed, seal, sha256Hex, shareTokenFor, unseal } from './secretKey.js';

const FINGERPRINT = /^[0-9a-f]{64}$/;

/** What the store keeps for a lichess API token: sealed under the store key (it must be sent to lichess). */
export const sealSourceToken = (store: Store, token: string | null): string | null => (token ? seal(store.key, token) : null);

/** The lichess token to send; null when none is saved or it was sealed under a key this store no longer has. */
export const revealSourceToken = (store: Store, stored: string | null): string | null => (stored ? unseal(store.key, stored) : null);

/** A report's share-link token (never stored: the row keeps its fingerprint). */
export const reportShareToken = (store: Store, reportId: string): string => shareTokenFor(store.key, reportId);

/** What the `share_token` column holds for a report. */
export const reportShareFingerprint = (store: Store, reportId: string): string => sha256Hex(reportShareToken(store, reportId));

/**
 * Stores written before secrets were protected kept the lichess token and the share tokens in
 * clear. Run at every start (a no-op once done), in TypeScript rather than SQL because it needs the
 * key: each clear lichess token is sealed, each clear share token becomes the fingerprint of the
 * report's derived token (so links handed out earlier change once). Returns what it changed.
 */
export function protectStoredSecrets(store: Store): { sourceTokens: number; shareTokens: number } {
  return store.sqlite
    .transaction(() => {
      let sourceTokens = 0;
      let shareTokens = 0;
      for (const c of store.db.select({ id: connections.id, t: connections.sourceToken }).from(connections).where(isNotNull(connections.sourceToken)).all()) {
        if (isSealed(c.t!)) continue;
        store.db.update(connections).set({ sourceToken: seal(store.key, c.t!) }).where(eq(connections.id, c.id)).run();
        sourceTokens += 1;
      }
      for (const r of store.db.select({ id: weeklyReports.id, t: weeklyReports.shareToken }).from(weeklyReports).all()) {
        if (FINGERPRINT.test(r.t)) continue;
        store.db.update(weeklyReports).set({ shareToken: reportShareFingerprint(store, r.id) }).where(eq(weeklyReports.id, r.id)).run();
        shareTokens += 1;
      }
      return { sourceTokens, shareTokens };
    })
    .immediate();
}

import { RatingsInput, StatsInput } from '../../../schemas/aggregates.js';
import { callCtx, type AppDeps, type PersonalCtx } from '../../context.js';
import { userById } from '../accounts/index.js';
import { problemLines } from '../stats/index.js';
import { ratingProgress } from '../stats/index.js';
import { chessStats } from '../stats/index.js';
import type { SourceSummary } from './sync.js';

/**
 * After a sync changed an owner's games, computes the aggregates an agent asks for first (stats
 * over all time and by default, rating progress, problem lines: each over up to 10,000 games) in
 * the background, one per turn of the event loop, so the owner's next read is served from
 * src/services/common/ownerMemo.ts instead of paying the recomputation on the request path.
 */
export async function warmOwnerReads(deps: AppDeps, userId: string): Promise<void> {
  const user = userById(deps.store, userId);
  if (!user) return;
  const ctx = callCtx(deps, user, { surface: 'rest', key: 'warm' }) as PersonalCtx;
  const reads = [
    () => chessStats(ctx, StatsInput.parse({})),
    () => chessStats(ctx, StatsInput.parse({ range: 'all' })),
    () => ratingProgress(ctx, RatingsInput.parse({})),
    () => problemLines(ctx),
  ];
  for (const read of reads) {
    await new Promise<void>((resolve) => setImmediate(resolve));
    if (!deps.store.sqlite.open) return;
    read();
  }
}

/** Whether a sync brought what those aggregates read (games or rating points), so they are worth warming. */
export function changesAggregates(s: Pick<SourceSummary, 'stored' | 'ratingPoints'>): boolean {
  return s.stored > 0 || s.ratingPoints > 0;
}

import { and, eq, inArray } from 'drizzle-orm';
import type { Store } from '../../store/db.js';
import { explorerAnswers } from '../../store/schema/index.js';
import type { ExplorerAnswer } from '../../sources/lichess/explorer.js';

/** Which explorer database and filter an answer was asked with: the cache key beside the position and month. */
export interface AnswerKind {
  database: 'lichess' | 'masters';
  ratings: string;
  speeds: string;
}

export const MASTERS: AnswerKind = { database: 'masters', ratings: '', speeds: '' };

/** The month an answer fetched at `now` is kept for (UTC). */
export const fetchMonth = (now: Date) => now.toISOString().slice(0, 7);

/** The owner's answers of `kind` cached for `month`, by position key. */
export function cachedAnswers(store: Store, userId: string, kind: AnswerKind, month: string, keys: readonly string[]): Map<string, ExplorerAnswer> {
  const out = new Map<string, ExplorerAnswer>();
  if (!keys.length) return out;
  const rows = store.db
    .select({ key: explorerAnswers.positionKey, answer: explorerAnswers.answer })
    .from(explorerAnswers)
    .where(
      and(
        eq(explorerAnswers.userId, userId),
        eq(explorerAnswers.database, kind.database),
        eq(explorerAnswers.ratings, kind.ratings),
        eq(explorerAnswers.speeds, kind.speeds),
        eq(explorerAnswers.month, month),
        inArray(explorerAnswers.positionKey, [...new Set(keys)]),
      ),
    )
    .all();
  for (const r of rows) out.set(r.key, JSON.parse(r.answer) as ExplorerAnswer);
  return out;
}

/** Stores one answer as it arrives (its own transaction), so an interrupted run resumes after it. */
export function storeAnswer(store: Store, userId: string, kind: AnswerKind, month: string, key: string, answer: ExplorerAnswer, at: Date): void {
  const row = {
    userId,
    positionKey: key,
    ...kind,
    month,
    answer: JSON.stringify(answer),
    games: answer.white + answer.draws + answer.black,
    fetchedAt: at.toISOString(),
  };
  store.sqlite.transaction(() => store.db.insert(explorerAnswers).values(row).onConflictDoUpdate({ target: [explorerAnswers.userId, explorerAnswers.positionKey, explorerAnswers.database, explorerAnswers.ratings, explorerAnswers.speeds, explorerAnswers.month], set: { answer: row.answer, games: row.games, fetchedAt: row.fetchedAt } }).run()).immediate();
}

import { perApp } from '../common/index.js';

/** How many tournaments are remembered per owner. */
export const LOOKED_AT_LIMIT = 20;

/**
 * The chess-results tournaments an owner looked at through this server (issue 43: completion offers them for a
 * prompt's tnr), newest first. Kept in memory for the process's life: the tournament tools need no token, so only
 * a call made with the owner's token is the owner's, and nothing of it is worth a table.
 */
export class TournamentsLookedAt {
  private readonly byOwner = new Map<string, string[]>();

  add(userId: string, tnr: string): void {
    const list = (this.byOwner.get(userId) ?? []).filter((t) => t !== tnr);
    list.unshift(tnr);
    this.byOwner.set(userId, list.slice(0, LOOKED_AT_LIMIT));
  }

  list(userId: string): readonly string[] {
    return this.byOwner.get(userId) ?? [];
  }
}

export const tournamentsLookedAt = perApp(() => new TournamentsLookedAt()).of;

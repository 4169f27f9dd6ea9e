import type { PositionMemo, SearchedPosition } from '../../engine/pool.js';

/**
 * Search results of positions met in one owner's reviews (issue 25 item 3: the opening moves of a
 * repertoire repeat across hundreds of games), kept by this process. One memo per owner and never
 * shared: one owner's reviews never shorten another's (issue 30 item 3). Bounded: the oldest results
 * go first past `perOwner` positions, the least recently used owner's memo past `owners`. A result
 * read from here is the one the engine gives the position alone from a clean hash, so reuse changes
 * no review's figures, only its cost.
 */
export class OwnerPositionMemos {
  private memos = new Map<string, BoundedMemo>();

  constructor(
    private readonly perOwner = 20_000,
    private readonly owners = 16,
  ) {}

  for(userId: string): PositionMemo {
    let memo = this.memos.get(userId);
    if (memo) this.memos.delete(userId);
    else memo = new BoundedMemo(this.perOwner);
    this.memos.set(userId, memo);
    while (this.memos.size > this.owners) this.memos.delete(this.memos.keys().next().value!);
    return memo;
  }
}

class BoundedMemo implements PositionMemo {
  private entries = new Map<string, SearchedPosition>();

  constructor(private readonly limit: number) {}

  get(key: string): SearchedPosition | undefined {
    return this.entries.get(key);
  }

  set(key: string, value: SearchedPosition): void {
    this.entries.set(key, value);
    while (this.entries.size > this.limit) this.entries.delete(this.entries.keys().next().value!);
  }
}

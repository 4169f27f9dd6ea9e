import type { z } from 'zod';
import type { MeetingPoint } from '../../../schemas/prep.js';
import type { Colour } from '../../chess/types.js';
import type { Store } from '../../store/db.js';
import { STATS_CAP } from '../stats/index.js';
import { inSlices, memoByOwner, scorePercent } from '../common/index.js';
import { lineTrieSteps, positionSteps, type PositionTally } from './lineTrie.js';
import type { ScoutGame } from './scoutStore.js';

/** Positions are compared over the first this many plies: the opening, where preparation meets. */
export const MEETING_PLIES = 16;
const MEETING_LIMIT = 10;

type Meeting = z.infer<typeof MeetingPoint>;

/** The owner's own games with `colour` (their SAN mainlines and results), newest first, as the opening tree reads them. */
export function ownerLines(store: Store, userId: string, colour: Colour): Array<{ sanMoves: string; result: 'win' | 'draw' | 'loss' }> {
  return store.sqlite
    .prepare(
      `SELECT san_moves AS sanMoves, result FROM games WHERE user_id = ? AND colour = ? AND san_moves IS NOT NULL AND san_moves != ''
        ORDER BY played_at DESC, id DESC LIMIT ?`,
    )
    .all(userId, colour, STATS_CAP) as Array<{ sanMoves: string; result: 'win' | 'draw' | 'loss' }>;
}

/** One side's games over the first MEETING_PLIES plies: the positions they reach, and every move between two positions with its games. */
export interface MeetingSide {
  tallies: Map<string, PositionTally>;
  /** Each trie node as (position before, position after, games through it). */
  edges: Array<{ from: string; to: string; games: number }>;
}

/** A side's positions and moves, replayed once (positionSteps), in slices: what meetingPoints reads of it. */
export async function meetingSide(games: ReadonlyArray<{ sanMoves: string; result: 'win' | 'draw' | 'loss' }>): Promise<MeetingSide> {
  const edges: MeetingSide['edges'] = [];
  const trie = await inSlices(lineTrieSteps(games, MEETING_PLIES));
  const tallies = await inSlices(positionSteps(trie, (n, key, parentKey) => edges.push({ from: parentKey, to: key, games: n.games })));
  return { tallies, edges };
}

/**
 * The owner's side with `colour`, kept per version of their games (ownerMemo): it does not depend on whom they
 * meet, so every scouted player's report reads the one replay of the owner's 10,000 openings (issue 37). Readers
 * arriving while it is worked out share the one computation.
 */
export function ownerMeetingSide(store: Store, userId: string, colour: Colour): Promise<MeetingSide> {
  return memoByOwner(store, userId, `prep:ownerSide:${colour}`, () => meetingSide(ownerLines(store, userId, colour)));
}

/** Games at each position that go no further into common ground: they part there, or end there. */
function parted(side: MeetingSide, common: Set<string>): Map<string, number> {
  const onward = new Map<string, number>();
  for (const e of side.edges) if (common.has(e.to)) onward.set(e.from, (onward.get(e.from) ?? 0) + e.games);
  const out = new Map<string, number>();
  for (const key of common) out.set(key, (side.tallies.get(key)?.games ?? 0) - (onward.get(key) ?? 0));
  return out;
}

/**
 * Where the owner's games with `ownerColour` and the scouted player's with the other colour meet: the
 * positions both reach in the first MEETING_PLIES plies (matched by position, so move orders do not
 * matter), each with how many games of each side reach it and how each scores from there. Reported are
 * the positions where games of either side part from the common ground (or end), most such games first.
 */
export async function meetingPoints(owner: MeetingSide, theirGames: readonly ScoutGame[]): Promise<Meeting[]> {
  const them = await meetingSide(theirGames);
  const mine = owner.tallies;
  const theirs = them.tallies;
  const common = new Set([...mine.keys()].filter((k) => theirs.has(k)));
  if (!common.size) return [];
  const partedMine = parted(owner, common);
  const partedTheirs = parted(them, common);
  return [...common]
    .map((key) => ({ key, partedGames: (partedMine.get(key) ?? 0) + (partedTheirs.get(key) ?? 0) }))
    .filter((p) => p.partedGames > 0)
    .sort((a, b) => b.partedGames - a.partedGames || mine.get(b.key)!.ply - mine.get(a.key)!.ply || a.key.localeCompare(b.key))
    .slice(0, MEETING_LIMIT)
    .map(({ key }) => {
      const o = mine.get(key)!;
      const t = theirs.get(key)!;
      return {
        lineMoves: o.line,
        ply: o.ply,
        fen: o.fen,
        owner: { games: o.games, score: scorePercent(o.win, o.draw, o.games) },
        them: { games: t.games, score: scorePercent(t.win, t.draw, t.games) },
      };
    });
}

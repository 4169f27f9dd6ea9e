import type { z } from 'zod';
import type { MeetingPoint } from '../../../schemas/prep.js';
import type { Colour } from '../../chess/types.js';
import type { Store } from '../../store/db.js';
import { STATS_CAP } from '../stats/index.js';
import { scorePercent } from '../common/index.js';
import { lineTrie, positionsOf, type LineNode, type PositionTally } from './lineTrie.js';
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

/** Games at each position that go no further into common ground: they part there, or end there. */
function parted(root: LineNode, tallies: Map<string, PositionTally>, common: Set<string>): Map<string, number> {
  const onward = new Map<string, number>();
  positionsOf(root, (n, key, parentKey) => {
    if (common.has(key)) onward.set(parentKey, (onward.get(parentKey) ?? 0) + n.games);
  });
  const out = new Map<string, number>();
  for (const key of common) out.set(key, (tallies.get(key)?.games ?? 0) - (onward.get(key) ?? 0));
  return out;
}

/**
 * Where the owner's games with `ownerColour` and the scouted player's with the other colour meet: the
 * positions both reach in the first MEETING_PLIES plies (matched by position, so move orders do not
 * matter), each with how many games of each side reach it and how each scores from there. Reported are
 * the positions where games of either side part from the common ground (or end), most such games first.
 */
export function meetingPoints(ownerGames: ReturnType<typeof ownerLines>, theirGames: readonly ScoutGame[]): Meeting[] {
  const ownerTrie = lineTrie(ownerGames, MEETING_PLIES);
  const theirTrie = lineTrie(theirGames, MEETING_PLIES);
  const mine = positionsOf(ownerTrie);
  const theirs = positionsOf(theirTrie);
  const common = new Set([...mine.keys()].filter((k) => theirs.has(k)));
  if (!common.size) return [];
  const partedMine = parted(ownerTrie, mine, common);
  const partedTheirs = parted(theirTrie, theirs, common);
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

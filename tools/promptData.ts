import type { PromptPart } from './promptDefinition.js';

/**
 * The data a prompt carries (issue 43): each part is the JSON one resource URI gives, so a model that
 * cannot read resources has what the workflow needs, and one that can sees where it came from.
 */

/** How far a tree embedded in a prompt goes below its position, in plies. */
export const TREE_PLIES = 6;
/** At most this many positions of one tree, the most played first (about 1 KB each). */
export const TREE_POSITIONS = 12;
/** How many of a position's next moves are followed, most played first. */
export const TREE_WIDTH = 3;
/** A move followed by fewer games than this is shown but not followed. */
export const TREE_MIN_GAMES = 2;

export function attach(uri: string, value: unknown): PromptPart {
  return { type: 'resource', resource: { uri, mimeType: 'application/json', text: JSON.stringify(value) } };
}

/** A `?moves=` query for a line of SAN moves ('' for the start position). */
export function movesQuery(lineMoves: string): string {
  return lineMoves ? `?${new URLSearchParams({ moves: lineMoves })}` : '';
}

interface TreePosition {
  nextMoves: ReadonlyArray<{ lineMoves: string; games: number }>;
}

export interface CutTree {
  parts: PromptPart[];
  /** Moves played in at least TREE_MIN_GAMES games whose position the cut leaves out. */
  leftOut: number;
}

/**
 * A tree cut to a size a chat holds: the start position, then breadth first the TREE_WIDTH most
 * played next moves of each position (those with TREE_MIN_GAMES games or more) to TREE_PLIES plies
 * below it, at most TREE_POSITIONS positions; each position is the JSON its resource URI gives.
 */
export function cutTree(read: (moves: string) => TreePosition, uriOf: (query: string) => string): CutTree {
  const parts: PromptPart[] = [];
  let leftOut = 0;
  // Breadth first, so the cut at TREE_POSITIONS keeps the positions nearest the start.
  const queue: Array<{ moves: string; depth: number }> = [{ moves: '', depth: 0 }];
  for (let at = 0; at < queue.length; at += 1) {
    const { moves, depth } = queue[at];
    if (parts.length === TREE_POSITIONS) {
      leftOut += 1;
      continue;
    }
    const position = read(moves);
    parts.push(attach(uriOf(movesQuery(moves)), position));
    const worth = position.nextMoves.filter((m) => m.games >= TREE_MIN_GAMES);
    const followed = depth < TREE_PLIES ? worth.slice(0, TREE_WIDTH) : [];
    leftOut += worth.length - followed.length;
    queue.push(...followed.map((m) => ({ moves: m.lineMoves, depth: depth + 1 })));
  }
  return { parts, leftOut };
}

/** What the text says of a cut tree. */
export function cutSentence(what: string, tree: CutTree): string {
  const n = tree.parts.length;
  const rule = `${what} is attached as ${n} position${n === 1 ? '' : 's'} (each the JSON of its URI): from the start, the ${TREE_WIDTH} most played moves of each position with at least ${TREE_MIN_GAMES} games, at most ${TREE_PLIES} plies deep and ${TREE_POSITIONS} positions`;
  return tree.leftOut
    ? `${rule}; cut there, ${tree.leftOut} more move${tree.leftOut === 1 ? '' : 's'} with ${TREE_MIN_GAMES}+ games go on beyond it, so say when a line runs past what is attached.`
    : `${rule}; nothing with ${TREE_MIN_GAMES}+ games was cut.`;
}

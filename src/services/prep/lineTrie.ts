import { positionKey } from '../../chess/repertoire.js';
import { startingBoard } from '../../chess/replay.js';
import { playSan, undoPlayed } from '../../chess/sanReplay.js';
import { atOnce, scorePercent } from '../common/index.js';

/** One node of a trie of SAN move sequences: the games whose first moves are the path to it. */
export interface LineNode {
  games: number;
  win: number;
  draw: number;
  children: Map<string, LineNode>;
}

/** Games laid out, or positions replayed, between two yields of the generators below. */
const STEP_NODES = 256;

const node = (): LineNode => ({ games: 0, win: 0, draw: 0, children: new Map() });

/** The games' first `depth` plies as a trie, each node counting the games through it and their results. */
export function lineTrie(games: ReadonlyArray<{ sanMoves: string; result: 'win' | 'draw' | 'loss' }>, depth: number): LineNode {
  return atOnce(lineTrieSteps(games, depth));
}

/** lineTrie as a generator yielding every STEP_NODES games, to run in slices (common/slices.ts). */
export function* lineTrieSteps(games: ReadonlyArray<{ sanMoves: string; result: 'win' | 'draw' | 'loss' }>, depth: number): Generator<void, LineNode> {
  const root = node();
  let seen = 0;
  for (const g of games) {
    if (++seen % STEP_NODES === 0) yield;
    let at = root;
    const count = (n: LineNode) => {
      n.games += 1;
      if (g.result === 'win') n.win += 1;
      else if (g.result === 'draw') n.draw += 1;
    };
    count(at);
    const moves = g.sanMoves ? g.sanMoves.split(' ', depth) : [];
    for (const san of moves) {
      let next = at.children.get(san);
      if (!next) at.children.set(san, (next = node()));
      count(next);
      at = next;
    }
  }
  return root;
}

export const nodeScore = (n: LineNode) => scorePercent(n.win, n.draw, n.games);

/** Walks the trie depth first: `visit(node, line)` for every node but the root. */
export function eachLine(root: LineNode, visit: (n: LineNode, line: string[]) => void): void {
  const line: string[] = [];
  const walk = (n: LineNode) => {
    for (const [san, child] of n.children) {
      line.push(san);
      visit(child, line);
      walk(child);
      line.pop();
    }
  };
  walk(root);
}

/** A position reached by the trie's games: every node reaching it summed (transpositions included). */
export interface PositionTally {
  key: string;
  fen: string;
  ply: number;
  line: string;
  games: number;
  win: number;
  draw: number;
}


/**
 * The positions of the trie's nodes, replayed once per node with one board (play, recurse, take back),
 * so 10,000 games cost one replay of their distinct first moves. `onNode` sees each node with its key.
 */
export function positionsOf(root: LineNode, onNode?: (n: LineNode, key: string, parentKey: string) => void): Map<string, PositionTally> {
  return atOnce(positionSteps(root, onNode));
}

/** positionsOf as a generator yielding every STEP_NODES positions, to run in slices (common/slices.ts). */
export function* positionSteps(root: LineNode, onNode?: (n: LineNode, key: string, parentKey: string) => void): Generator<void, Map<string, PositionTally>> {
  const out = new Map<string, PositionTally>();
  const board = startingBoard();
  const line: string[] = [];
  let replayed = 0;
  function* walk(n: LineNode, parentKey: string): Generator<void, void> {
    for (const [san, child] of n.children) {
      if (typeof playSan(board, san) === 'string') continue; // stored mainlines replay; a damaged one is skipped
      if (++replayed % STEP_NODES === 0) yield;
      line.push(san);
      const fen = board.fen();
      const key = positionKey(fen);
      const t = out.get(key);
      if (t) {
        t.games += child.games;
        t.win += child.win;
        t.draw += child.draw;
      } else out.set(key, { key, fen, ply: line.length, line: line.join(' '), games: child.games, win: child.win, draw: child.draw });
      onNode?.(child, key, parentKey);
      yield* walk(child, key);
      line.pop();
      undoPlayed(board);
    }
  }
  yield* walk(root, positionKey(board.fen()));
  return out;
}

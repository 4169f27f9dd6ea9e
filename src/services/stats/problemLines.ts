import type { ProblemLines } from '../../../schemas/aggregates.js';
import type { PersonalCtx } from '../../context.js';
import type { Store } from '../../store/db.js';
import { memoByOwner, round2 } from '../common/index.js';
import { STATS_CAP } from './chessStats.js';

export const MIN_PLIES = 6;
export const MAX_PLIES = 24;
export const MIN_GAMES = 5;
export const MIN_DROP = 8;
const MAX_LINES = 30;
const EXAMPLES = 5;

export interface LineGame {
  id: string;
  colour: 'white' | 'black';
  result: 'win' | 'draw' | 'loss';
  /** Mainline SAN, space-separated. */
  sanMoves: string;
}

interface Node {
  children: Map<string, Node>;
  games: number;
  /** Points doubled (win 2, draw 1), so every comparison stays in integers. */
  points2: number;
  win: number;
  draw: number;
  loss: number;
  examples: string[];
}

const node = (): Node => ({ children: new Map(), games: 0, points2: 0, win: 0, draw: 0, loss: 0, examples: [] });
const round1 = (x: number) => Math.round(x * 10) / 10;

type Line = ProblemLines['lines'][number];

/**
 * Problem lines of one colour. `games` newest first (examples are the most recent).
 *
 * A candidate is a SAN prefix of 6 to 24 plies followed by at least 5 games whose score is at
 * least 8 percentage points under the colour baseline (tested exactly, in integers).
 * Struggle index = drop × log2(games).
 *
 * "Most informative length": prefixes of one line are nested, and a weak line shows up at every
 * length its games share. Each line is reported once, at the length with the highest struggle index
 * along it; when lengths tie (the same games to ply k), the longest wins, because it names the
 * position the games actually reach before they diverge. Concretely: candidates are taken by struggle
 * index (then plies) descending, and one is skipped when an already taken line is its prefix or
 * extension. So no reported line is a prefix of another.
 */
export function problemLinesOf(colour: 'white' | 'black', games: readonly LineGame[]): { lines: Line[]; baseline: { games: number; points2: number } } {
  const root = node();
  let baseGames = 0;
  let basePoints2 = 0;
  for (const g of games) {
    if (g.colour !== colour) continue;
    const p2 = g.result === 'win' ? 2 : g.result === 'draw' ? 1 : 0;
    baseGames += 1;
    basePoints2 += p2;
    const sans = g.sanMoves.split(' ').filter(Boolean);
    let at = root;
    for (let i = 0; i < Math.min(MAX_PLIES, sans.length); i += 1) {
      let next = at.children.get(sans[i]);
      if (!next) at.children.set(sans[i], (next = node()));
      next.games += 1;
      next.points2 += p2;
      next[g.result] += 1;
      if (next.examples.length < EXAMPLES) next.examples.push(g.id);
      at = next;
    }
  }
  const candidates: Line[] = [];
  const N = baseGames;
  const walk = (n: Node, path: string[]) => {
    const plies = path.length;
    if (plies >= MIN_PLIES && n.games >= MIN_GAMES) {
      // drop = 100·B2/(2N) − 100·p2/(2n) ≥ 8  ⇔  100·(B2·n − p2·N) ≥ 16·N·n
      if (100 * (basePoints2 * n.games - n.points2 * N) >= 2 * MIN_DROP * N * n.games) {
        const baseline = (100 * basePoints2) / (2 * N);
        const score = (100 * n.points2) / (2 * n.games);
        const drop = baseline - score;
        candidates.push({
          colour,
          lineMoves: path.join(' '),
          plies,
          games: n.games,
          score: round1(score),
          baseline: round1(baseline),
          drop: round1(drop),
          struggleIndex: drop * Math.log2(n.games),
          win: n.win,
          draw: n.draw,
          loss: n.loss,
          exampleGameIds: n.examples,
        });
      }
    }
    // Fewer than MIN_GAMES here means fewer below too.
    if (n.games < MIN_GAMES && plies > 0) return;
    for (const [san, child] of n.children) walk(child, [...path, san]);
  };
  walk(root, []);
  candidates.sort((a, b) => b.struggleIndex - a.struggleIndex || b.plies - a.plies);
  const taken: Line[] = [];
  const nested = (a: string, b: string) => a === b || a.startsWith(`${b} `) || b.startsWith(`${a} `);
  for (const c of candidates) if (!taken.some((t) => nested(t.lineMoves, c.lineMoves))) taken.push(c);
  return { lines: taken, baseline: { games: N, points2: basePoints2 } };
}

function loadLineGames(store: Store, userId: string): LineGame[] {
  // Over-the-board rows have no moves of their own; they are left out even if a line was typed in.
  return store.sqlite
    .prepare(
      `SELECT id, colour, result, san_moves AS sanMoves FROM games
        WHERE user_id = ? AND provider <> 'fed' AND san_moves IS NOT NULL AND san_moves <> ''
        ORDER BY played_at DESC, id DESC LIMIT ?`,
    )
    .all(userId, STATS_CAP) as LineGame[];
}

function baselineCounts(colour: 'white' | 'black', games: readonly LineGame[]) {
  const xs = games.filter((g) => g.colour === colour);
  const win = xs.filter((g) => g.result === 'win').length;
  const draw = xs.filter((g) => g.result === 'draw').length;
  const n = xs.length;
  return {
    games: n,
    win,
    draw,
    loss: n - win - draw,
    winRate: n ? round1((100 * win) / n) : 0,
    score: n ? round1((100 * (win + draw / 2)) / n) : 0,
  };
}

/** Kept per version of the owner's games: the 10,000-game trie is built once after each change (ownerMemo.ts). */
export function problemLines(ctx: PersonalCtx): ProblemLines {
  return memoByOwner(ctx.store, ctx.user.id, 'get_problem_lines', () => computeProblemLines(ctx));
}

function computeProblemLines(ctx: PersonalCtx): ProblemLines {
  const games = loadLineGames(ctx.store, ctx.user.id);
  const lines = [...problemLinesOf('white', games).lines, ...problemLinesOf('black', games).lines]
    .sort((a, b) => b.struggleIndex - a.struggleIndex || b.plies - a.plies)
    .slice(0, MAX_LINES)
    .map((l) => ({ ...l, struggleIndex: round2(l.struggleIndex) }));
  return {
    lines,
    baselines: { white: baselineCounts('white', games), black: baselineCounts('black', games) },
    rules:
      `Lines of ${MIN_PLIES}-${MAX_PLIES} plies from the most recent ${STATS_CAP} online games with moves, where the score is at least ${MIN_DROP} points under the colour baseline over at least ${MIN_GAMES} games; ` +
      'each reported once, at the length with the highest struggle index (the longest on a tie, where its games diverge).',
  };
}

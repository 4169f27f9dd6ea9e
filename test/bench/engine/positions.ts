import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parsePgn } from '../../../src/chess/pgn.js';
import { positionPhase, type Phase } from '../../../src/chess/phase.js';
import { gamePositions } from '../../../src/chess/positions.js';
import { viewBoard } from '../../../src/chess/replay.js';
import { fixturePath } from '../../helpers/fixtures.js';

/**
 * The review-quality position set: short stretches of consecutive positions from the shipped
 * library games (data/library), so the bench can compare both the best move at each position and the
 * classification of each move (which needs the positions before and after it, and the ply before for
 * "miss"). Chosen by rule, not by hand, so `selectStretches` can rebuild the fixture and a test can
 * check it still matches the games.
 *
 * Rule (STRETCH_RULE): library games in slug order; a game offers a middlegame stretch of
 * STRETCH_POSITIONS positions starting 6 plies after its first middlegame position (past the book
 * moves), and an endgame stretch starting at its first endgame position, when every position of the
 * stretch is before the game's last position. Take STRETCHES_PER_PHASE endgame stretches from games
 * evenly spaced through the list of games that offer one, then as many middlegame stretches from
 * evenly spaced games not already used.
 */
export const STRETCH_POSITIONS = 11;
export const STRETCHES_PER_PHASE = 5;
export const STRETCH_RULE =
  'library games in slug order; middlegame stretch = 11 consecutive positions starting 6 plies after the first middlegame position (divider-v1); endgame stretch = 11 positions from the first endgame position; none may reach the last position; 5 endgame stretches from evenly spaced games offering one, then 5 middlegame stretches from evenly spaced games not yet used';

export interface Stretch {
  slug: string;
  phase: Exclude<Phase, 'opening'>;
  /** Index of the first position in the game (0 = start, N = after ply N). */
  from: number;
  /** The game's start position and the moves up to the stretch's last position (history for repetition). */
  startFen: string;
  movesUci: string[];
  /** FENs of the stretch's positions, in order (for reading; recomputed from the moves by the test). */
  fens: string[];
}

export interface PositionSet {
  source: string;
  rule: string;
  stretches: Stretch[];
}

interface LibraryGame {
  slug: string;
  startFen: string;
  moves: string[];
}

export function libraryGames(libraryDir: string): LibraryGame[] {
  return readdirSync(libraryDir, { withFileTypes: true })
    .filter((d) => d.isDirectory())
    .map((d) => d.name)
    .sort()
    .flatMap((slug) => {
      let text: string;
      try {
        text = readFileSync(join(libraryDir, slug, 'game.pgn'), 'utf8');
      } catch {
        return [];
      }
      const g = parsePgn(text);
      return [{ slug, startFen: g.startFen, moves: g.plies.map((p) => p.uci) }];
    });
}

function stretchAt(g: LibraryGame, phase: Stretch['phase'], from: number): Stretch | null {
  const last = from + STRETCH_POSITIONS - 1;
  if (from < 0 || last >= g.moves.length) return null; // the final position (index = moves.length) stays out
  const positions = gamePositions(g.startFen, g.moves.slice(0, last));
  return { slug: g.slug, phase, from, startFen: g.startFen, movesUci: g.moves.slice(0, last), fens: positions.slice(from).map((p) => p.fen) };
}

function candidates(g: LibraryGame): Partial<Record<Stretch['phase'], Stretch>> {
  const fens = gamePositions(g.startFen, g.moves).map((p) => p.fen);
  const phaseOf = fens.map((f) => positionPhase(viewBoard(f)!));
  const firstMid = phaseOf.findIndex((p) => p !== 'opening');
  const firstEnd = phaseOf.indexOf('endgame');
  const out: Partial<Record<Stretch['phase'], Stretch>> = {};
  const mid = firstMid >= 0 ? stretchAt(g, 'middlegame', firstMid + 6) : null;
  // A middlegame stretch must stay a middlegame: no endgame position inside it.
  if (mid && (firstEnd < 0 || firstEnd > mid.from + STRETCH_POSITIONS - 1)) out.middlegame = mid;
  const end = firstEnd >= 0 ? stretchAt(g, 'endgame', firstEnd) : null;
  if (end) out.endgame = end;
  return out;
}

function evenlySpaced<T>(xs: T[], n: number): T[] {
  if (xs.length <= n) return xs;
  return Array.from({ length: n }, (_, k) => xs[Math.floor((k * xs.length) / n)]);
}

export function selectStretches(libraryDir: string): Stretch[] {
  const offers = libraryGames(libraryDir).map(candidates);
  const endgames = evenlySpaced(offers.flatMap((o) => (o.endgame ? [o.endgame] : [])), STRETCHES_PER_PHASE);
  const used = new Set(endgames.map((s) => s.slug));
  const middlegames = evenlySpaced(offers.flatMap((o) => (o.middlegame && !used.has(o.middlegame.slug) ? [o.middlegame] : [])), STRETCHES_PER_PHASE);
  return [...middlegames, ...endgames];
}

export const POSITION_SET_FILE = fixturePath('engine', 'review-positions.json');

export function loadPositionSet(file = POSITION_SET_FILE): PositionSet {
  return JSON.parse(readFileSync(file, 'utf8')) as PositionSet;
}

/** UCI `position` argument for the stretch's k-th position (the moves give the engine the history). */
export function positionArg(s: Stretch, k: number): string {
  const n = s.from + k;
  return `fen ${s.startFen}${n > 0 ? ` moves ${s.movesUci.slice(0, n).join(' ')}` : ''}`;
}

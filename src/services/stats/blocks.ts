import type { StatTimeClass } from '../../../schemas/common.js';
import type { Stats } from '../../../schemas/aggregates.js';
import { openingFamily } from '../../chess/openings.js';

type Result = 'win' | 'draw' | 'loss';

/** A game as the aggregates see it: time class mapped, accuracy resolved (platform, else review). */
export interface StatGame {
  id: string;
  playedAt: string;
  provider: string;
  colour: 'white' | 'black';
  result: Result;
  opponent: string;
  opponentRating: number | null;
  userRating: number | null;
  timeClass: StatTimeClass;
  opening: string | null;
  movesCount: number;
  accuracy: number | null;
}

const round1 = (x: number) => Math.round(x * 10) / 10;
const pct = (part: number, whole: number) => (whole === 0 ? 0 : round1((100 * part) / whole));

export function counts(gs: readonly StatGame[]) {
  let win = 0;
  let draw = 0;
  let loss = 0;
  for (const g of gs) {
    if (g.result === 'win') win += 1;
    else if (g.result === 'draw') draw += 1;
    else loss += 1;
  }
  const games = gs.length;
  return { games, win, draw, loss, winRate: pct(win, games), score: pct(win + draw / 2, games) };
}

export function accuracyOf(gs: readonly StatGame[]) {
  const xs = gs.map((g) => g.accuracy).filter((a): a is number => a !== null);
  return { games: xs.length, average: xs.length ? round1(xs.reduce((a, b) => a + b, 0) / xs.length) : null };
}

function meanOpponent(gs: readonly StatGame[]): number | null {
  const xs = gs.map((g) => g.opponentRating).filter((r): r is number => r !== null);
  return xs.length ? Math.round(xs.reduce((a, b) => a + b, 0) / xs.length) : null;
}

function group(gs: readonly StatGame[]) {
  return { ...counts(gs), accuracy: accuracyOf(gs), averageOpponentRating: meanOpponent(gs) };
}

export function totals(gs: readonly StatGame[]): Stats['totals'] {
  const line = (xs: readonly StatGame[]) => {
    const c = counts(xs);
    return { win: c.win, draw: c.draw, loss: c.loss, total: c.games, winRate: c.winRate, score: c.score };
  };
  return {
    white: line(gs.filter((g) => g.colour === 'white')),
    black: line(gs.filter((g) => g.colour === 'black')),
    overall: line(gs),
  };
}

export function onlineVsOverTheBoard(gs: readonly StatGame[]): Stats['onlineVsOverTheBoard'] {
  return {
    online: group(gs.filter((g) => g.provider !== 'fed')),
    overTheBoard: group(gs.filter((g) => g.provider === 'fed')),
  };
}

/** The linear performance rating ("algorithm of 400"): mean opponent + 400 × (W − L) / N. */
export function performance(gs: readonly StatGame[]): Stats['performance'] {
  const rated = gs.filter((g) => g.opponentRating !== null);
  if (!rated.length) return { games: 0, averageOpponentRating: null, rating: null };
  const c = counts(rated);
  const avg = rated.reduce((a, g) => a + g.opponentRating!, 0) / rated.length;
  return { games: rated.length, averageOpponentRating: Math.round(avg), rating: Math.round(avg + (400 * (c.win - c.loss)) / rated.length) };
}

export function gameRef(g: StatGame) {
  return {
    gameId: g.id,
    playedAt: g.playedAt,
    provider: g.provider,
    timeClass: g.timeClass,
    colour: g.colour,
    result: g.result,
    opponent: g.opponent,
    opponentRating: g.opponentRating!,
    userRating: g.userRating,
    opening: g.opening,
  };
}

/** Win over the highest-rated opponent (the earlier game on a tie). */
export function bestWin(gs: readonly StatGame[]) {
  let best: StatGame | null = null;
  for (const g of gs) {
    if (g.result !== 'win' || g.opponentRating === null) continue;
    if (!best || g.opponentRating > best.opponentRating! || (g.opponentRating === best.opponentRating && g.playedAt < best.playedAt)) best = g;
  }
  return best ? gameRef(best) : null;
}

/** Loss to the lowest-rated opponent (the earlier game on a tie). */
export function worstDefeat(gs: readonly StatGame[]) {
  let worst: StatGame | null = null;
  for (const g of gs) {
    if (g.result !== 'loss' || g.opponentRating === null) continue;
    if (!worst || g.opponentRating < worst.opponentRating! || (g.opponentRating === worst.opponentRating && g.playedAt < worst.playedAt)) worst = g;
  }
  return worst ? gameRef(worst) : null;
}

/** `chrono` is oldest first. */
export function streaks(chrono: readonly StatGame[]): Stats['streaks'] {
  const longest = (pred: (r: Result) => boolean) => {
    let best = { length: 0, from: null as string | null, to: null as string | null };
    let len = 0;
    let start = 0;
    chrono.forEach((g, i) => {
      if (pred(g.result)) {
        if (len === 0) start = i;
        len += 1;
        if (len > best.length) best = { length: len, from: chrono[start].playedAt, to: g.playedAt };
      } else len = 0;
    });
    return best;
  };
  const tailWhile = (pred: (r: Result) => boolean) => {
    let n = 0;
    for (let i = chrono.length - 1; i >= 0 && pred(chrono[i].result); i -= 1) n += 1;
    return n;
  };
  const last = chrono.at(-1)?.result ?? null;
  return {
    longestWin: longest((r) => r === 'win'),
    longestUnbeaten: longest((r) => r !== 'loss'),
    longestLoss: longest((r) => r === 'loss'),
    current: { result: last, length: last ? tailWhile((r) => r === last) : 0, unbeaten: tailWhile((r) => r !== 'loss') },
  };
}

/** `newest` is newest first. */
export function lastTen(newest: readonly StatGame[]): Stats['lastTen'] {
  const ten = newest.slice(0, 10);
  return { ...counts(ten), results: ten.map((g) => g.result) };
}

const WEEKDAYS = ['Monday', 'Tuesday', 'Wednesday', 'Thursday', 'Friday', 'Saturday', 'Sunday'];

export function weekdays(gs: readonly StatGame[]): Stats['weekdays'] {
  const by: StatGame[][] = WEEKDAYS.map(() => []);
  for (const g of gs) by[(new Date(g.playedAt).getUTCDay() + 6) % 7].push(g);
  return WEEKDAYS.map((weekday, i) => ({ weekday, ...counts(by[i]) }));
}

/** Opponent minus own rating before the game; bands chosen so ±50 reads as "an even game". */
const STRENGTH_BANDS: Array<[string, number | null, number | null]> = [
  ['much weaker (over 200 below)', null, -201],
  ['weaker (51 to 200 below)', -200, -51],
  ['similar (within 50)', -50, 50],
  ['stronger (51 to 200 above)', 51, 200],
  ['much stronger (over 200 above)', 201, null],
];

const inBand = (x: number, min: number | null, max: number | null) => (min === null || x >= min) && (max === null || x <= max);

export function opponentStrength(gs: readonly StatGame[]): Stats['opponentStrength'] {
  const both = gs.filter((g) => g.opponentRating !== null && g.userRating !== null);
  return STRENGTH_BANDS.map(([bucket, min, max]) => {
    const xs = both.filter((g) => inBand(g.opponentRating! - g.userRating!, min, max));
    // Elo expectation of each game: 1 / (1 + 10^((opp − own) / 400)).
    const expected = xs.reduce((a, g) => a + 1 / (1 + 10 ** ((g.opponentRating! - g.userRating!) / 400)), 0);
    return { bucket, min, max, ...counts(xs), expectedScore: xs.length ? pct(expected, xs.length) : null };
  });
}

const LENGTH_BANDS: Array<[string, number, number | null]> = [
  ['up to 20 moves', 1, 20],
  ['21 to 30 moves', 21, 30],
  ['31 to 40 moves', 31, 40],
  ['41 to 60 moves', 41, 60],
  ['over 60 moves', 61, null],
];

export function gameLength(gs: readonly StatGame[]): Stats['gameLength'] {
  const withMoves = gs.filter((g) => g.movesCount > 0);
  return LENGTH_BANDS.map(([bucket, min, max]) => ({
    bucket,
    min,
    max,
    ...counts(withMoves.filter((g) => inBand(g.movesCount, min, max))),
  }));
}

export function openings(gs: readonly StatGame[], top = 20): Stats['openings'] {
  const by = new Map<string, StatGame[]>();
  for (const g of gs) {
    if (!g.opening) continue;
    const fam = openingFamily(g.opening);
    const list = by.get(fam);
    if (list) list.push(g);
    else by.set(fam, [g]);
  }
  return [...by.entries()]
    .sort((a, b) => b[1].length - a[1].length || (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : 0))
    .slice(0, top)
    .map(([opening, xs]) => ({
      opening,
      ...counts(xs),
      asWhite: xs.filter((g) => g.colour === 'white').length,
      asBlack: xs.filter((g) => g.colour === 'black').length,
      accuracy: accuracyOf(xs),
    }));
}

export function monthly(chrono: readonly StatGame[]): Stats['monthly'] {
  const by = new Map<string, StatGame[]>();
  for (const g of chrono) {
    const m = g.playedAt.slice(0, 7);
    const list = by.get(m);
    if (list) list.push(g);
    else by.set(m, [g]);
  }
  return [...by.keys()].sort().map((month) => {
    const xs = by.get(month)!;
    return { month, ...counts(xs), accuracy: accuracyOf(xs), averageOpponentRating: meanOpponent(xs) };
  });
}

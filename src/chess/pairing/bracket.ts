import { allocate, type Colour, STRONG } from './colours.js';
import { canMeet } from './compatibility.js';
import type { PairingPlayer } from './scoreGroups.js';

/**
 * One bracket of the Dutch system: moved-down players (MDPs) plus the residents of a score group.
 *
 * Candidates are generated in the order of C.04.3 (MDPs against S2 in order, then S1 against S2 by
 * transpositions, then exchanges with the rest of S1) by a depth-first search, and scored by the quality
 * criteria folded into one number, most important first. The first candidate with the lowest score wins,
 * which is what the rules ask (the first candidate in the generation order among the best ones).
 */

// Quality criteria weights, lexicographic by magnitude.
const W_FLOAT = 5e14; // C.5 maximise the number of pairs
const W_PSD = 1e12; // C.6 minimise the pairing score difference (squared half-points, an approximation)
const W_NEXT = 1e11; // C.7 downfloaters who cannot be paired in the next bracket
const W_TOP = 1e10; // C.8/C.9 topscorers: colour difference beyond 2, three in a row
const W_PREF = 1e8; // C.10 colour preferences not granted
const W_STRONG = 1e6; // C.11 strong colour preferences not granted
const W_F1 = 1e4; // C.12/C.13 same float as in the previous round
const W_F2 = 1e2; // C.14/C.15 same float as two rounds before
// Not a criterion: among equal candidates, transpositions come before exchanges (an S1 member not paired with S2).
const W_EXCHANGE = 1;

export interface BracketResult {
  pairs: Array<[PairingPlayer, PairingPlayer]>;
  floaters: PairingPlayer[];
}

export interface BracketOptions {
  score: number;
  initialColour: Colour;
  /** Lowest bracket: a leftover player takes the bye, so must be eligible, and at most one may be left. */
  last: boolean;
  /** Can the floaters plus every lower player still be paired? (C.4 completion) */
  completes: (floaters: PairingPlayer[]) => boolean;
  /** Residents of the next score group, for C.7. */
  next: PairingPlayer[];
  budget?: number;
}

export function pairBracket(players: PairingPlayer[], opts: BracketOptions): BracketResult | null {
  const n = players.length;
  const pen: number[][] = players.map((a, i) => players.map((b, j) => (i === j ? Infinity : pairPenalty(a, b, opts.initialColour))));
  const floatPen = players.map((p) => {
    if (opts.last && !p.byeEligible) return Infinity;
    let v = W_FLOAT + W_PSD * sq((p.score - opts.score) * 2 + 2);
    if (p.float1 === 'down') v += W_F1;
    if (p.float2 === 'down') v += W_F2;
    return v;
  });
  const isMdp = players.map((p) => p.score > opts.score);
  const state = new Array<number>(n).fill(-2); // -2 undecided, -1 floats, else partner index
  let best = Infinity;
  let bestState: number[] | null = null;
  let nodes = 0;
  const budget = opts.budget ?? 60000;
  let floats = 0;
  // Lower bound on the colour preferences still to be refused: each pair grants at most one white and one black.
  const wantsW = players.map((p) => p.colour.pref === 'white');
  const wantsB = players.map((p) => p.colour.pref === 'black');
  let undW = wantsW.filter(Boolean).length;
  let undB = wantsB.filter(Boolean).length;
  let und = n;
  const decide = (k: number, d: number) => {
    und -= d;
    if (wantsW[k]) undW -= d;
    if (wantsB[k]) undB -= d;
  };
  const colourBound = () => {
    const p = Math.floor(und / 2);
    return W_PREF * (Math.max(0, undW - p) + Math.max(0, undB - p));
  };

  // S1 of the homogeneous remainder: fixed once the MDPs are decided (C.04.3 B.2).
  let inS1: boolean[] | null = null;
  const partnerOrder = (i: number): number[] => {
    const und: number[] = [];
    for (let j = i + 1; j < n; j++) if (state[j] === -2) und.push(j);
    if (isMdp[i]) return [...und.filter((j) => !isMdp[j]), ...und.filter((j) => isMdp[j])];
    if (!inS1![i]) return und;
    // Transpositions of S2 first, then exchanges with the lower members of S1.
    return [...und.filter((j) => !inS1![j]), ...und.filter((j) => inS1![j])];
  };

  const rec = (cost: number): void => {
    if (nodes++ > budget && bestState) return;
    let i = 0;
    while (i < n && state[i] !== -2) i++;
    if (i === n) {
      if (opts.last && floats > 1) return;
      const floaters = players.filter((_, k) => state[k] === -1);
      const total = cost + W_NEXT * (floaters.length - matchable(floaters, opts.next));
      if (total < best && opts.completes(floaters)) {
        best = total;
        bestState = [...state];
      }
      return;
    }
    if (!isMdp[i] && inS1 === null) {
      const rest: number[] = [];
      for (let j = i; j < n; j++) if (state[j] === -2) rest.push(j);
      const flags = new Array<boolean>(n).fill(false);
      rest.slice(0, Math.floor(rest.length / 2)).forEach((j) => (flags[j] = true));
      inS1 = flags;
      rec(cost);
      inS1 = null;
      return;
    }
    // Cheapest partners first (stable, so generation order breaks ties): the first complete candidate is then
    // near-optimal and the bound prunes hard, which keeps brackets of 70+ players fast.
    const opts2 = partnerOrder(i)
      .map((j, k) => ({ j, k, c: pen[i][j] + (inS1 && inS1[i] && inS1[j] ? W_EXCHANGE : 0) }))
      .filter((o) => o.c !== Infinity);
    if (greedy) opts2.sort((x, y) => x.c - y.c || x.k - y.k);
    for (const { j, c: pc } of opts2) {
      const c = cost + pc;
      if (c >= best) continue;
      decide(i, 1);
      decide(j, 1);
      if (c + colourBound() < best) {
        state[i] = j;
        state[j] = i;
        rec(c);
        state[i] = state[j] = -2;
      }
      decide(i, -1);
      decide(j, -1);
    }
    const c = cost + floatPen[i] + (inS1 && inS1[i] ? W_EXCHANGE : 0);
    decide(i, 1);
    if (c + colourBound() < best) {
      state[i] = -1;
      floats++;
      rec(c);
      floats--;
      state[i] = -2;
    }
    decide(i, -1);
  };
  // Pass 1 finds a near-optimal cost with cheapest-first ordering; pass 2 walks the rules' generation order
  // with that bound, so it returns the first candidate (in C.04.3 order) that is at least as good.
  let greedy = true;
  rec(0);
  greedy = false;
  nodes = 0;
  if (bestState) best += 0.5;
  rec(0);
  if (!bestState) return null;
  const s: number[] = bestState;
  const pairs: Array<[PairingPlayer, PairingPlayer]> = [];
  s.forEach((j, i) => {
    if (j > i) pairs.push([players[i], players[j]]);
  });
  return { pairs, floaters: players.filter((_, k) => s[k] === -1) };
}

const sq = (x: number) => x * x;

/** Quality cost of pairing a with b (a listed first, so a.score >= b.score); Infinity if forbidden. */
export function pairPenalty(a: PairingPlayer, b: PairingPlayer, initialColour: Colour): number {
  if (!canMeet(a, b)) return Infinity;
  let v = W_PSD * sq((a.score - b.score) * 2);
  const ca = allocate(a, b, initialColour);
  v += colourCost(a, ca) + colourCost(b, ca === 'white' ? 'black' : 'white');
  if (a.score !== b.score) {
    const up = a.score > b.score ? b : a;
    if (up.float1 === 'up') v += W_F1;
    if (up.float2 === 'up') v += W_F2;
  }
  return v;
}

function colourCost(p: PairingPlayer, c: Colour): number {
  const col = p.colour;
  let v = 0;
  if (col.pref && col.pref !== c) {
    v += W_PREF;
    if (col.strength >= STRONG) v += W_STRONG;
  }
  {
    const diff = col.diff + (c === 'white' ? 1 : -1);
    const played = col.byRound.filter((x) => x !== null);
    const threeInRow = played.length >= 2 && played[played.length - 1] === c && played[played.length - 2] === c;
    if (Math.abs(diff) > 2 || threeInRow) v += W_TOP;
  }
  return v;
}

/** How many floaters can each meet a different player of the next group (bipartite augmenting paths). */
function matchable(floaters: PairingPlayer[], next: PairingPlayer[]): number {
  if (floaters.length === 0 || next.length === 0) return 0;
  const owner = new Map<number, number>();
  const tryAssign = (f: number, seen: Set<number>): boolean => {
    for (let j = 0; j < next.length; j++) {
      if (seen.has(j) || !canMeet(floaters[f], next[j])) continue;
      seen.add(j);
      const o = owner.get(j);
      if (o === undefined || tryAssign(o, seen)) {
        owner.set(j, f);
        return true;
      }
    }
    return false;
  };
  let m = 0;
  for (let f = 0; f < floaters.length; f++) if (tryAssign(f, new Set())) m++;
  return m;
}

import { allocate, type Colour, STRONG } from './colours.js';
import { canMeet } from './compatibility.js';
import { nextBracketOutcome, type NextBracket, type NextOutcome } from './nextBracket.js';
import type { PairingPlayer } from './scoreGroups.js';

/**
 * One bracket of the Dutch system: moved-down players (MDPs) plus the residents of a score group.
 *
 * The quality criteria are folded into one cost per candidate, most important first (weights below), and
 * the rules ask for the first candidate, in their generation order, among those of lowest cost. So:
 * 1. a bounded cheapest-first search, repaired by 2-opt swaps, finds the lowest cost it can (the target);
 * 2. the candidate is then built decision by decision in generation order (MDPs against S2 in order; the
 *    homogeneous remainder as transpositions of its S1/S2 split, then of single exchanges ordered as in
 *    C.04.3, then a free search), keeping at each step the first option from which the target is reachable.
 * Exchanges (S1 paired within S1, or an S1 player floating) only break ties between candidates that share
 * the same MDP pairing.
 */

// Quality criteria weights, lexicographic by magnitude.
const W_FLOAT = 5e14; // C.5 maximise the number of pairs
const W_PSD = 1e12; // C.6 minimise the pairing score difference (squared half-points, an approximation)
const W_NEXT = 1e11; // C.7 downfloaters who cannot be paired in the next bracket
const W_UNPLAYED = 3e10; // C.9 (2025) the bye assignee: as few unplayed games as possible
const W_NPSD = 2e9; // C.7 then the PSD of the next bracket (squared half-points, an approximation; nextBracket.ts)
const W_TOP = 1e9; // C.8/C.9 topscorers: colour difference beyond 2, three in a row (below C.7's PSD term)
const W_PREF = 1e8; // C.10 colour preferences not granted
const W_STRONG = 1e6; // C.11 strong colour preferences not granted
const W_F1D = 1e5; // C.12 a downfloater who also floated down in the previous round
const W_F1U = 1e4; // C.13 an upfloater who also floated up in the previous round
const W_F2D = 1e3; // C.14 a downfloater who also floated down two rounds before
const W_F2U = 1e2; // C.15 an upfloater who also floated up two rounds before
const W_FD1 = 10; // C.16/C.17 score differences (half-points) of repeated floats from the previous round
const W_FD2 = 1; // C.18/C.19 score differences (half-points) of repeated floats from two rounds before
/** Single exchanges tried, in order, before falling back to a free search over exchanges. */
const MAX_EXCHANGES = 40;
/**
 * Nodes a reachability test may visit (is the target cost still reachable after this decision?). It stops at
 * the first candidate that reaches the target, so the budget only binds when the answer is no or hard to find;
 * a test that gives up too early sends the construction off the rules' first candidate.
 */
const REACH_BUDGET = 100_000;

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
  /** The next bracket, for C.7. */
  next: NextBracket;
  /** Nobody below may take the bye, so one of this bracket's downfloaters will: C.7 does not count them as unpaired. */
  byeFromAbove?: boolean;
  budget?: number;
}

export function pairBracket(players: PairingPlayer[], opts: BracketOptions): BracketResult | null {
  const n = players.length;
  const pen: number[][] = players.map((a, i) => players.map((b, j) => (i === j ? Infinity : pairPenalty(a, b, opts.initialColour))));
  const floatPen = players.map((p) => {
    if (opts.last && !p.byeEligible) return Infinity;
    let v = W_FLOAT + W_PSD * sq((p.score - opts.score) * 2 + 2);
    // In the last bracket the one player left over takes the bye.
    if (opts.last) v += W_UNPLAYED * p.unplayed;
    if (p.float1 === 'down') v += W_F1D;
    if (p.float2 === 'down') v += W_F2D;
    return v;
  });
  const isMdp = players.map((p) => p.score > opts.score);
  const state = new Array<number>(n).fill(-2); // -2 undecided, -1 floats, else partner index
  // S1 of the homogeneous remainder: fixed once the MDPs are decided (C.04.3 B.2).
  let inS1: boolean[] | null = null;
  let restricted = false;
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
    const odd = und - 2 * p; // the player left over may be anyone, so may take a preference away with them
    return W_PREF * (Math.max(0, undW - p - odd) + Math.max(0, undB - p - odd));
  };

  const firstUndecided = () => {
    let i = 0;
    while (i < n && state[i] !== -2) i++;
    return i;
  };
  const fixSplit = (i: number, size?: number) => {
    const rest: number[] = [];
    for (let j = i; j < n; j++) if (state[j] === -2) rest.push(j);
    const flags = new Array<boolean>(n).fill(false);
    rest.slice(0, size ?? Math.floor(rest.length / 2)).forEach((j) => (flags[j] = true));
    inS1 = flags;
  };
  /** Decisions for player i in the rules' generation order: partners (cost, exchange flag), then floating (j = -1). */
  const options = (i: number): Array<{ j: number; c: number; x: number }> => {
    const undec: number[] = [];
    for (let j = i + 1; j < n; j++) if (state[j] === -2) undec.push(j);
    let order: number[];
    const s1 = inS1 !== null && inS1[i];
    if (isMdp[i]) order = [...undec.filter((j) => !isMdp[j]), ...undec.filter((j) => isMdp[j])];
    // A pure transposition of a given S1/S2 split: every pair crosses, and only S2 members float.
    else if (restricted) order = undec.filter((j) => inS1![j] !== s1);
    else if (!s1) order = undec;
    // Transpositions of S2 first, then exchanges with the lower members of S1.
    else order = [...undec.filter((j) => !inS1![j]), ...undec.filter((j) => inS1![j])];
    const out = order.filter((j) => pen[i][j] !== Infinity).map((j) => ({ j, c: pen[i][j], x: s1 && inS1![j] ? 1 : 0 }));
    if (floatPen[i] !== Infinity && !(restricted && s1)) out.push({ j: -1, c: floatPen[i], x: s1 ? 1 : 0 });
    return out;
  };
  const apply = (i: number, j: number, d: 1 | -1) => {
    decide(i, d);
    if (j >= 0) decide(j, d);
    if (d === 1) {
      state[i] = j;
      if (j >= 0) state[j] = i;
      else floats++;
    } else {
      state[i] = -2;
      if (j >= 0) state[j] = -2;
      else floats--;
    }
  };
  const nextMemo = new Map<string, NextOutcome>();
  const nextOutcome = (floaters: PairingPlayer[]) => {
    const key = floaters.map((f) => f.rank).join();
    let v = nextMemo.get(key);
    if (v === undefined) nextMemo.set(key, (v = nextBracketOutcome(floaters, opts.next)));
    return v;
  };
  const floatExtra = (floaters: PairingPlayer[]): number | null => {
    if (opts.last && floaters.length > 1) return null;
    if (!opts.completes(floaters)) return null;
    if (floaters.length === 0 || opts.next.residents.length === 0) return 0;
    // C.7: as many pairs as possible in the next bracket (its residents and these floaters), then its PSD.
    const size = floaters.length + opts.next.residents.length - (opts.byeFromAbove ? 1 : 0);
    const o = nextOutcome(floaters);
    return W_NEXT * Math.max(0, Math.floor(size / 2) - o.pairs) + W_NPSD * o.psd;
  };
  const leafCost = (): number | null => floatExtra(players.filter((_, k) => state[k] === -1));

  /**
   * Bounded cheapest-first search from the current partial candidate. `useExch` compares (criteria, exchanges)
   * lexicographically, otherwise criteria only. Returns the best complete candidate found under the bound.
   */
  const search = (crit0: number, exch0: number, boundCrit: number, boundExch: number, useExch: boolean, budget: number, firstOnly = false) => {
    const free = state.map((v) => v === -2);
    let bestC = boundCrit, bestX = boundExch;
    let found: number[] | null = null;
    let foundS1: boolean[] | null = null;
    let nodes = 0;
    // The first leaf of a cheapest-first dive, kept (whatever its cost) for the local improvement below.
    let dive: { crit: number; exch: number; state: number[]; s1: boolean[] | null } | null = null;
    const better = (c: number, x: number, strict: boolean) =>
      c < bestC || (c === bestC && (!useExch || (strict ? x < bestX : x <= bestX)));
    const rec = (crit: number, exch: number, bounded: boolean): void => {
      if (nodes++ > budget || (!bounded && dive) || (firstOnly && found)) return;
      const i = firstUndecided();
      if (i === n) {
        const extra = leafCost();
        if (extra === null) return;
        const c = crit + extra;
        if (!bounded) dive = { crit: c, exch, state: [...state], s1: inS1 };
        else if (better(c, exch, found !== null)) {
          bestC = c;
          bestX = exch;
          found = [...state];
          foundS1 = inS1;
        }
        return;
      }
      let setSplit = false;
      if (!isMdp[i] && inS1 === null) {
        fixSplit(i);
        setSplit = true;
      }
      const opts2 = options(i).sort((a, b) => a.c - b.c);
      for (const o of opts2) {
        const c = crit + o.c;
        if (bounded && c > bestC) break;
        apply(i, o.j, 1);
        if (!bounded || better(c + colourBound(), exch + o.x, found !== null)) rec(c, exch + o.x, bounded);
        apply(i, o.j, -1);
        if (nodes > budget || (!bounded && dive) || (firstOnly && found)) break;
      }
      if (setSplit) inS1 = null;
    };
    rec(crit0, exch0, true);
    if (found) {
      const r = improve(found, foundS1, bestC, bestX, free, useExch);
      return { crit: r.crit, exch: r.exch, state: r.state };
    }
    // Nothing under the bound within the budget: dive once and repair the dive by swapping partners.
    nodes = 0;
    rec(crit0, exch0, false);
    const d = dive as { crit: number; exch: number; state: number[]; s1: boolean[] | null } | null;
    if (!d) return null;
    const r = improve(d.state, d.s1, d.crit, d.exch, free, useExch);
    const ok = r.crit < boundCrit || (r.crit === boundCrit && (!useExch || r.exch <= boundExch));
    return ok ? r : null;
  };

  /** 2-opt repair of a complete candidate: re-pair two pairs of free players while that lowers the cost. */
  const improve = (st0: number[], s1: boolean[] | null, crit: number, exch: number, free: boolean[], useExch: boolean) => {
    const st = [...st0];
    const x = (i: number, j: number) => (s1 && s1[i] && s1[j] ? 1 : 0);
    for (let sweep = 0; sweep < 20; sweep++) {
      let improved = false;
      const ps: Array<[number, number]> = [];
      for (let i = 0; i < n; i++) if (free[i] && st[i] > i && free[st[i]]) ps.push([i, st[i]]);
      for (let a = 0; a < ps.length; a++) {
        for (let b = a + 1; b < ps.length; b++) {
          const [i, j] = ps[a], [k, l] = ps[b];
          const cur = pen[i][j] + pen[k][l], curX = x(i, j) + x(k, l);
          for (const [p, q, r, t] of [[i, k, j, l], [i, l, j, k]]) {
            const alt = pen[p][q] + pen[r][t];
            if (alt === Infinity) continue;
            if (restricted && s1 && (s1[p] === s1[q] || s1[r] === s1[t])) continue;
            const altX = x(Math.min(p, q), Math.max(p, q)) + x(Math.min(r, t), Math.max(r, t));
            if (alt < cur || (alt === cur && useExch && altX < curX)) {
              st[p] = q; st[q] = p; st[r] = t; st[t] = r;
              crit += alt - cur;
              exch += altX - curX;
              ps[a] = [Math.min(p, q), Math.max(p, q)];
              ps[b] = [Math.min(r, t), Math.max(r, t)];
              improved = true;
              break;
            }
          }
        }
      }
      // Move the float: a floater takes a partner's place and that partner floats instead.
      const fl = () => players.filter((_, k) => st[k] === -1);
      const baseExtra = floatExtra(fl());
      for (let f = 0; f < n && !improved && baseExtra !== null; f++) {
        if (!free[f] || st[f] !== -1) continue;
        for (const [i, j] of ps) {
          for (const [stay, go] of [[i, j], [j, i]]) {
            const alt = pen[f][stay] + floatPen[go];
            const cur = pen[i][j] + floatPen[f];
            if (alt === Infinity || alt > cur) continue;
            if (restricted && s1 && (s1[go] || s1[f] === s1[stay])) continue;
            const altX = x(Math.min(f, stay), Math.max(f, stay)) + (s1 && s1[go] ? 1 : 0);
            const curX = x(i, j) + (s1 && s1[f] ? 1 : 0);
            st[f] = stay; st[stay] = f; st[go] = -1;
            const extra = floatExtra(fl());
            const delta = extra === null ? Infinity : alt - cur + extra - baseExtra;
            if (delta < 0 || (delta === 0 && useExch && altX < curX)) {
              crit += delta;
              exch += altX - curX;
              improved = true;
              break;
            }
            st[f] = -1; st[stay] = go; st[go] = stay;
          }
          if (improved) break;
        }
      }
      if (!improved) break;
    }
    return { crit, exch, state: st };
  };

  // Pass 1: the best candidate a bounded search finds; its cost is the target.
  const first = search(0, 0, Infinity, Infinity, true, opts.budget ?? 20000);
  if (!first) return null;
  let target = first;
  // Pass 2: build the candidate decision by decision in the rules' generation order, keeping the first
  // option from which the target cost is still reachable. This yields the first candidate, in C.04.3 order,
  // among the best ones. Exchanges only separate candidates sharing the same MDP pairing.
  let crit = 0, exch = 0;
  let bestState: number[] | null = target.state;
  const undo: Array<[number, number]> = [];
  for (;;) {
    const i = firstUndecided();
    if (i === n) {
      bestState = [...state];
      break;
    }
    if (!isMdp[i] && inS1 === null) {
      // The homogeneous remainder: try its S1/S2 split, then single exchanges in the order of C.04.3 D.2,
      // each as pure transpositions; the first split that reaches the target cost is the one the rules pick.
      const rest: number[] = [];
      for (let j = i; j < n; j++) if (state[j] === -2) rest.push(j);
      // S1 holds as many players as the remainder makes pairs (MaxPairs, C.04.3 B.2), not half of it: when
      // completion sends some residents down, the players who float are the last of S2. Every candidate of
      // the target cost makes as many pairs (C.5 dominates), so that is the target's less those decided.
      const pairsIn = (st: number[]) => st.filter((v, k) => v > k).length;
      const half = Math.max(0, pairsIn(target.state) - pairsIn(state));
      const splits: number[][] = [rest.slice(0, half)];
      const swaps: Array<[number, number]> = [];
      for (let a = 0; a < half; a++) for (let b = half; b < rest.length; b++) swaps.push([a, b]);
      // Smallest BSN difference, then the highest S1 player moved down, then the lowest S2 player moved up.
      swaps.sort((x, y) => x[1] - x[0] - (y[1] - y[0]) || y[0] - x[0] || x[1] - y[1]);
      for (const [a, b] of swaps.slice(0, MAX_EXCHANGES)) splits.push(rest.slice(0, half).map((k, idx) => (idx === a ? rest[b] : k)));
      let picked = false;
      for (const split of splits) {
        const flags = new Array<boolean>(n).fill(false);
        for (const k of split) flags[k] = true;
        inS1 = flags;
        restricted = true;
        const r = search(crit, exch, target.crit, Infinity, false, REACH_BUDGET, true);
        if (r && r.crit <= target.crit) {
          picked = true;
          break;
        }
      }
      if (!picked) {
        restricted = false;
        fixSplit(i, half);
        const again = search(crit, exch, target.crit, Infinity, true, 4000);
        if (again) target = again;
      }
    }
    const inRemainder = inS1 !== null && !restricted;
    let chosen = false;
    for (const o of options(i)) {
      const c = crit + o.c;
      if (c > target.crit) continue;
      apply(i, o.j, 1);
      const ok = search(c, exch + o.x, target.crit, target.exch, inRemainder, REACH_BUDGET, true);
      if (ok) {
        crit = c;
        exch += o.x;
        undo.push([i, o.j]);
        chosen = true;
        break;
      }
      apply(i, o.j, -1);
    }
    if (!chosen) {
      bestState = target.state;
      break;
    }
  }
  for (const [i, j] of undo.reverse()) apply(i, j, -1);
  inS1 = null;
  restricted = false;
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
    const down = up === a ? b : a;
    const d = Math.abs(a.score - b.score) * 2;
    if (up.float1 === 'up') v += W_F1U + W_FD1 * d;
    if (up.float2 === 'up') v += W_F2U + W_FD2 * d;
    if (down.float1 === 'down') v += W_FD1 * d;
    if (down.float2 === 'down') v += W_FD2 * d;
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

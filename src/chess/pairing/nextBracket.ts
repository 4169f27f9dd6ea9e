import { canComplete, maxPairCount } from './byes.js';
import { canMeet } from './compatibility.js';
import type { PairingPlayer } from './scoreGroups.js';

/**
 * C.04.3 C.7: a bracket chooses its downfloaters "first to maximise the number of pairs and then to minimise
 * the PSD in the next bracket". This is that next bracket, judged from the floaters alone.
 */
export interface NextBracket {
  /** Residents of the next score group. */
  residents: PairingPlayer[];
  /** Can these players floating out of the next bracket plus every player below it still be paired? (C.4) */
  completesBelow: (floaters: PairingPlayer[]) => boolean;
}

/** Pairs the next bracket can make and its PSD as squared half-points (an approximation of A.8's list). */
export interface NextOutcome {
  pairs: number;
  psd: number;
}

const sq = (x: number) => x * x;
/** Candidate sets of the next bracket's own floaters tried before falling back to the estimate without C.4. */
const MAX_SETS = 3000;
const MAX_CHECKS = 300;

/**
 * The next bracket's pairing is bound by the same completion criterion (C.4) as every bracket: the players it
 * sends down must let the rest of the round be paired. So its pairs and PSD are those of the cheapest set U of
 * its own floaters (fewest first, C.5; then the lowest PSD, A.8) such that the others pair among themselves
 * and U with everyone below completes. A paired MDP's SD is its score less the residents'; a floater's is its
 * score less the artificial value one point below them (A.8). When the sets are too many to try, the
 * estimate without C.4 below stands in.
 */
export function nextBracketOutcome(floaters: PairingPlayer[], next: NextBracket): NextOutcome {
  const all = [...floaters, ...next.residents];
  const n = all.length;
  const s = next.residents[0].score;
  const d = all.map((p) => (p.score - s) * 2);
  // Cost of a player staying (paired with a resident) and of floating out.
  const stay = all.map((_, i) => (i < floaters.length ? sq(d[i]) : 0));
  const out = d.map((x) => sq(x + 2));
  const base = stay.reduce((a, b) => a + b, 0);
  let checks = 0;
  for (let k = n % 2; k <= n % 2 + 4 && k <= n; k += 2) {
    const sets = subsets(n, k);
    if (!sets) break;
    const cost = (u: number[]) => u.reduce((c, i) => c + out[i] - stay[i], 0);
    const ranked = sets.map((u) => ({ u, c: cost(u) })).sort((a, b) => a.c - b.c);
    for (const { u, c } of ranked) {
      if (++checks > MAX_CHECKS) return estimate(floaters, next.residents);
      const inU = new Set(u);
      if (!next.completesBelow(u.map((i) => all[i]))) continue;
      if (!canComplete(all.filter((_, i) => !inU.has(i)))) continue;
      return { pairs: (n - k) / 2, psd: base + c };
    }
  }
  return estimate(floaters, next.residents);
}

/** Every k-subset of 0..n-1, or null when there are more than MAX_SETS. */
function subsets(n: number, k: number): number[][] | null {
  let count = 1;
  for (let i = 0; i < k; i++) count = (count * (n - i)) / (i + 1);
  if (count > MAX_SETS) return null;
  const res: number[][] = [];
  const cur: number[] = [];
  const rec = (from: number) => {
    if (cur.length === k) {
      res.push([...cur]);
      return;
    }
    for (let i = from; i < n; i++) {
      cur.push(i);
      rec(i + 1);
      cur.pop();
    }
  };
  rec(0);
  return res;
}

/**
 * Without C.4: the most pairs (a maximum matching), and the PSD with the MDPs that can meet distinct residents
 * paired. Those MDP sets form a transversal matroid, so matching greedily from the highest score down
 * (augmenting paths) leaves unpaired the set whose PSD is lexicographically least. Residents left over by
 * parity float at one point.
 */
function estimate(floaters: PairingPlayer[], residents: PairingPlayer[]): NextOutcome {
  const s = residents[0].score;
  const owner = new Array<number>(residents.length).fill(-1);
  const order = floaters.map((_, i) => i).sort((a, b) => floaters[b].score - floaters[a].score);
  const augment = (f: number, seen: boolean[]): boolean => {
    for (let r = 0; r < residents.length; r++) {
      if (seen[r] || !canMeet(floaters[f], residents[r])) continue;
      seen[r] = true;
      if (owner[r] < 0 || augment(owner[r], seen)) {
        owner[r] = f;
        return true;
      }
    }
    return false;
  };
  let psd = 0, matched = 0;
  for (const f of order) {
    const d = (floaters[f].score - s) * 2;
    if (augment(f, new Array<boolean>(residents.length).fill(false))) {
      matched++;
      psd += sq(d);
    } else psd += sq(d + 2);
  }
  psd += sq(2) * ((residents.length - matched) % 2);
  return { pairs: maxPairCount([...floaters, ...residents]), psd };
}

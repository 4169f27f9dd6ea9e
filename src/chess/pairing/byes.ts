import { canMeet } from './compatibility.js';
import type { PairingPlayer } from './scoreGroups.js';

/**
 * Completion test (C.04.3 C.4): can these players all be paired, with at most one left over who may take
 * the pairing-allocated bye (C.2)? A bounded backtracking search that always branches on the player with the
 * fewest partners; when the budget runs out it answers true, since dense Swiss graphs almost always complete.
 */
export function canComplete(players: PairingPlayer[], budget = 4000): boolean {
  const n = players.length;
  if (n === 0) return true;
  const adj: number[][] = players.map((a, i) => players.flatMap((b, j) => (i !== j && canMeet(a, b) ? [j] : [])));
  // Dirac: minimum degree >= n/2 gives a Hamiltonian cycle, hence a perfect matching (after removing the
  // bye player when n is odd, which is why odd n needs one more). Later Swiss rounds nearly always pass this.
  const minDeg = Math.min(...adj.map((a) => a.length));
  if (n >= 3 && minDeg >= (n % 2 === 0 ? n / 2 : (n + 1) / 2) && (n % 2 === 0 || players.some((p) => p.byeEligible))) return true;
  const used = new Array<boolean>(n).fill(false);
  let nodes = 0;
  let byeLeft = n % 2 === 1;
  const rec = (left: number): boolean => {
    if (left === 0) return true;
    if (++nodes > budget) return true;
    let best = -1, bestDeg = Infinity;
    for (let i = 0; i < n; i++) {
      if (used[i]) continue;
      let d = 0;
      for (const j of adj[i]) if (!used[j]) d++;
      if (d < bestDeg) { bestDeg = d; best = i; }
    }
    used[best] = true;
    for (const j of adj[best]) {
      if (used[j]) continue;
      used[j] = true;
      if (rec(left - 2)) return true;
      used[j] = false;
    }
    if (byeLeft && players[best].byeEligible) {
      byeLeft = false;
      if (rec(left - 1)) return true;
      byeLeft = true;
    }
    used[best] = false;
    return false;
  };
  return rec(n);
}

/**
 * C.4 completion test for "these floaters plus every lower player", called for many floater sets per bracket.
 * The lower players' degrees are computed once, so the usual case (Dirac's condition holds) costs
 * O(floaters × lower players); only when it fails does the full search run.
 */
export function completer(below: PairingPlayer[]): (floaters: PairingPlayer[]) => boolean {
  const baseDeg = below.map((a) => below.reduce((d, b) => (a !== b && canMeet(a, b) ? d + 1 : d), 0));
  const memo = new Map<string, boolean>();
  return (floaters) => {
    const key = floaters.map((f) => f.rank).sort((a, b) => a - b).join();
    const known = memo.get(key);
    if (known !== undefined) return known;
    const n = floaters.length + below.length;
    let ok: boolean | null = null;
    if (n === 0) ok = true;
    else if (n >= 3 && (n % 2 === 0 || [...floaters, ...below].some((p) => p.byeEligible))) {
      const need = n % 2 === 0 ? n / 2 : (n + 1) / 2;
      const deg = below.map((b, i) => baseDeg[i] + floaters.filter((f) => canMeet(f, b)).length);
      const fdeg = floaters.map((f) => below.filter((b) => canMeet(f, b)).length + floaters.filter((g) => g !== f && canMeet(f, g)).length);
      if (Math.min(...deg, ...fdeg) >= need) ok = true;
    }
    if (ok === null) ok = canComplete([...floaters, ...below]);
    memo.set(key, ok);
    return ok;
  };
}

/** The bye goes only to a player who has not had a PAB or a forfeit win (C.04.1, C.04.3 C.2). */
export function mayTakeBye(p: PairingPlayer): boolean {
  return p.byeEligible;
}

/**
 * The most pairs these players can make among themselves (C.7 counts the pairs of the next bracket). Dirac's
 * condition answers at once; otherwise a bounded search that branches on the player with the fewest partners
 * (pair them, or leave them out) and keeps the best count found.
 */
export function maxPairCount(players: PairingPlayer[], budget = 5000): number {
  const n = players.length;
  if (n < 2) return 0;
  const adj: number[][] = players.map((a, i) => players.flatMap((b, j) => (i !== j && canMeet(a, b) ? [j] : [])));
  if (Math.min(...adj.map((a) => a.length)) >= Math.ceil(n / 2)) return Math.floor(n / 2);
  const used = new Array<boolean>(n).fill(false);
  let best = 0;
  let nodes = 0;
  const rec = (left: number, pairs: number): void => {
    if (pairs > best) best = pairs;
    if (pairs + Math.floor(left / 2) <= best || ++nodes > budget) return;
    let pick = -1, pickDeg = Infinity;
    for (let i = 0; i < n; i++) {
      if (used[i]) continue;
      let d = 0;
      for (const j of adj[i]) if (!used[j]) d++;
      if (d < pickDeg) { pickDeg = d; pick = i; }
    }
    if (pick < 0) return;
    used[pick] = true;
    for (const j of adj[pick]) {
      if (used[j]) continue;
      used[j] = true;
      rec(left - 2, pairs + 1);
      used[j] = false;
    }
    rec(left - 1, pairs);
    used[pick] = false;
  };
  rec(n, 0);
  return best;
}

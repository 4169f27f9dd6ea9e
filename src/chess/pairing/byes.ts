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

/** The bye goes only to a player who has not had a PAB or a forfeit win (C.04.1, C.04.3 C.2). */
export function mayTakeBye(p: PairingPlayer): boolean {
  return p.byeEligible;
}

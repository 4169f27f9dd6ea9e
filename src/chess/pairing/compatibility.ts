import { ABSOLUTE } from './colours.js';
import type { PairingPlayer } from './scoreGroups.js';

/**
 * Absolute criteria for one pair (C.04.3 C.1, C.3): no rematch of a played game, and two players with the
 * same absolute colour preference do not meet unless one is a topscorer in the last round.
 */
export function canMeet(a: PairingPlayer, b: PairingPlayer): boolean {
  if (a.played.has(b.rank) || b.played.has(a.rank)) return false;
  const ca = a.colour, cb = b.colour;
  if (ca.strength === ABSOLUTE && cb.strength === ABSOLUTE && ca.pref === cb.pref && !a.topscorer && !b.topscorer) return false;
  return true;
}

import type { RoundEntry } from './state.js';

export type Colour = 'white' | 'black';
/** C.04.3 A.6: absolute > strong > mild > none. */
export type PrefStrength = 0 | 1 | 2 | 3;
export const NONE = 0, MILD = 1, STRONG = 2, ABSOLUTE = 3;

export interface ColourInfo {
  /** Colours of played games only (forfeits and byes excluded), by round; null where no game was played. */
  byRound: Array<Colour | null>;
  /** whites minus blacks over played games. */
  diff: number;
  pref: Colour | null;
  strength: PrefStrength;
}

export const other = (c: Colour): Colour => (c === 'white' ? 'black' : 'white');

export function isPlayedGame(e: RoundEntry): boolean {
  return e.kind === 'game' && (e.result === 'win' || e.result === 'draw' || e.result === 'loss');
}

/** Colour preference from the played-game history (C.04.3 A.6). */
export function colourInfo(history: RoundEntry[]): ColourInfo {
  const byRound = history.map((e) => (isPlayedGame(e) && e.kind === 'game' ? e.colour : null));
  const played = byRound.filter((c): c is Colour => c !== null);
  const diff = played.reduce((d, c) => d + (c === 'white' ? 1 : -1), 0);
  if (played.length === 0) return { byRound, diff, pref: null, strength: NONE };
  const last = played[played.length - 1];
  const lastTwoSame = played.length >= 2 && played[played.length - 2] === last;
  if (diff > 1 || diff < -1 || lastTwoSame) {
    const pref: Colour = diff > 1 ? 'black' : diff < -1 ? 'white' : other(last);
    return { byRound, diff, pref, strength: ABSOLUTE };
  }
  if (diff !== 0) return { byRound, diff, pref: diff > 0 ? 'black' : 'white', strength: STRONG };
  return { byRound, diff, pref: other(last), strength: MILD };
}

export interface ColourSide {
  rank: number;
  score: number;
  colour: ColourInfo;
}

/** Higher-ranked: more points, then the lower pairing number. */
export function higherRanked(a: ColourSide, b: ColourSide): ColourSide {
  if (a.score !== b.score) return a.score > b.score ? a : b;
  return a.rank < b.rank ? a : b;
}

/**
 * Colour allocation for one pair (C.04.3 E.1–E.5). Returns the colour of `a`.
 * `initialColour` drives E.5, where neither player has a preference.
 */
export function allocate(a: ColourSide, b: ColourSide, initialColour: Colour): Colour {
  const pa = a.colour, pb = b.colour;
  // E.1 both preferences can be granted.
  if (pa.pref && pb.pref && pa.pref !== pb.pref) return pa.pref;
  if (pa.pref && !pb.pref && pa.strength > NONE && pb.strength === NONE) return pa.pref;
  if (pb.pref && !pa.pref) return other(pb.pref);
  if (!pa.pref && !pb.pref) {
    // E.5 higher-ranked player: initial colour on an odd pairing number, else the opposite.
    const h = higherRanked(a, b);
    const hc = h.rank % 2 === 1 ? initialColour : other(initialColour);
    return h === a ? hc : other(hc);
  }
  // Same preferred colour: E.2 the stronger preference wins (both absolute: the wider colour difference).
  const pref = pa.pref as Colour;
  if (pa.strength !== pb.strength) return pa.strength > pb.strength ? pref : other(pref);
  if (pa.strength === ABSOLUTE && Math.abs(pa.diff) !== Math.abs(pb.diff)) {
    return Math.abs(pa.diff) > Math.abs(pb.diff) ? pref : other(pref);
  }
  // E.3 alternate from the most recent time they had different colours, comparing their played games
  // from the latest backwards (unplayed rounds are skipped, not matched round by round).
  const ga = pa.byRound.filter((c): c is Colour => c !== null);
  const gb = pb.byRound.filter((c): c is Colour => c !== null);
  for (let k = 1; k <= Math.min(ga.length, gb.length); k++) {
    const ca = ga[ga.length - k], cb = gb[gb.length - k];
    if (ca !== cb) return other(ca);
  }
  // E.4 the higher-ranked player gets the preference.
  return higherRanked(a, b) === a ? pref : other(pref);
}

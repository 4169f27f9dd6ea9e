import { ApiError } from '../../errors.js';
import { normaliseName } from './load.js';

/**
 * The player a caller means by `target`: exact match on the normalised name first (commas, case,
 * accents and spacing folded), then a unique partial match. The name is only compared, never fetched.
 */
export function findTarget<P extends { name: string; startingRank: number }>(players: P[], target: string): P {
  const want = normaliseName(target);
  if (!want) throw new ApiError(400, 'target: give a player name');
  const exact = players.filter((p) => normaliseName(p.name) === want);
  if (exact.length === 1) return exact[0];
  const partial = exact.length > 1 ? exact : players.filter((p) => normaliseName(p.name).includes(want));
  if (partial.length === 1) return partial[0];
  if (partial.length === 0) throw new ApiError(404, 'target: no player of that name in this tournament');
  const names = partial.slice(0, 5).map((p) => `${p.name} (No. ${p.startingRank})`).join('; ');
  throw new ApiError(400, `target: ${partial.length} players match; be more specific: ${names}`);
}

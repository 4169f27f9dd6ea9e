import { NoLegalPairingError, pairNextRound } from '../../chess/pairing/index.js';
import type { EnginePairing, EngineTournamentState } from './pairingInput.js';

/** The pairing engine as the estimates see it; tests pass a stand-in whose rule they state. */
export interface PairingEngine {
  pairNextRound(state: EngineTournamentState): EnginePairing;
}

export function isNoLegalPairing(err: unknown): err is Error {
  return err instanceof NoLegalPairingError;
}

/** The FIDE Dutch engine of src/chess/pairing. */
export const dutchEngine: PairingEngine = { pairNextRound };


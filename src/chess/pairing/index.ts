import { tournamentStateSchema, type Pairing, type TournamentState } from './state.js';

export * from './state.js';

/** No legal pairing exists for the next round (too few players, every pairing a rematch, round already complete…). */
export class NoLegalPairingError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'NoLegalPairingError';
  }
}

/**
 * Pairs the next round (roundsPlayed + 1) by the FIDE Dutch system (C.04.3, 2025).
 * Throws NoLegalPairingError when no pairing satisfies the absolute criteria.
 */
export function pairNextRound(state: TournamentState): Pairing {
  const s = tournamentStateSchema.parse(state);
  throw new NoLegalPairingError(`not implemented yet for round ${s.roundsPlayed + 1}`);
}

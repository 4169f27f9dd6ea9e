import type { EnginePairing, EngineTournamentState } from './pairingInput.js';

export interface PairingEngine {
  pairNextRound(state: EngineTournamentState): EnginePairing;
}

/** The engine's own "no legal pairing" error, recognised by name (its class lives in the engine module). */
export function isNoLegalPairing(err: unknown): err is Error {
  return err instanceof Error && err.name === 'NoLegalPairingError';
}

// The Dutch engine is built on another branch (src/chess/pairing/). Until the branches are merged this
// module may be absent, so it is loaded by a specifier the compiler does not resolve; when it is missing,
// estimate_pairings answers 501. After the merge, the lead may swap this for a static import of
// `pairNextRound` from '../../chess/pairing/index.js'.
const ENGINE_MODULE = '../../chess/pairing/index.js';
let loaded: Promise<PairingEngine | null> | null = null;

export function loadPairingEngine(): Promise<PairingEngine | null> {
  loaded ??= import(/* @vite-ignore */ ENGINE_MODULE).then(
    (m: { pairNextRound?: unknown }) => (typeof m.pairNextRound === 'function' ? (m as PairingEngine) : null),
    () => null,
  );
  return loaded;
}

/** The door of src/services/sync/ (the only module other rooms import). Syncing the owner's connections (chess.com, lichess, ECF): the sources' runs (sync, write), the connections themselves, the scheduler and the warm-up of the aggregates after a sync. */
export * from './connections.js';
export * from './sync.js';
export * from './syncScheduler.js';
export * from './types.js';
export * from './warmReads.js';
// The sources' courtesy figures, for another fetcher of the same sites (prep's scout) to keep the same pace.
export { monthEnd, SETTLE_MS } from './chesscom.js';
export { LICHESS_429_WAIT_MS, LICHESS_POLITENESS } from './lichess.js';
// How a player names each site, for the CLI's lines.
export { SOURCE_NAMES } from '../../sources/failure.js';

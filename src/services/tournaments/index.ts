/** The door of src/services/tournaments/ (the only module other rooms import). chess-results.com tournaments: the state, the round-1 and next-round pairing estimates. */
export * from './estimates.js';
export * from './state.js';
export { ABSENCE_KINDS, ABSENCE_SOURCES } from './absences.js';
export { tournamentsLookedAt, LOOKED_AT_LIMIT } from './lookedAt.js';

/** The door of src/services/games/ (the only module other rooms import). A game's life below its review: the games table's one writer (gameWriter), the list and one owned row (games), its full moves (gameMoves), a PGN attached (attach), imported (imports) or submitted (pgnInput). */
export * from './attach.js';
export * from './gameMoves.js';
export * from './gameWriter.js';
export * from './games.js';
export * from './gameLabels.js';
export * from './imports.js';
export * from './pgnInput.js';

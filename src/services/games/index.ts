export * from './attach.js';
export * from './gameMoves.js';
export * from './gameWriter.js';
export * from './games.js';
export * from './imports.js';
export * from './pgnInput.js';

export * from './blocks.js';
export * from './chessStats.js';
export * from './load.js';
export * from './openingTree.js';
export * from './problemLines.js';
export * from './puzzles.js';
export * from './ratings.js';
export * from './weakness.js';

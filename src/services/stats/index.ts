/** The door of src/services/stats/ (the only module other rooms import). Aggregates over an owner's games: get_chess_stats (chessStats, blocks, load, insights/), rating progress, problem lines, puzzles, the weakness profile and the opening tree. */
export * from './blocks.js';
export * from './chessStats.js';
export * from './load.js';
export * from './openingTree.js';
export * from './problemLines.js';
export * from './puzzles.js';
export * from './ratings.js';
export * from './weakness.js';

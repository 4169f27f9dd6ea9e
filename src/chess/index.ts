// `chess-footprint/chess`: the pure chess functions, usable without the service.
export { parsePgn, splitPgnGames, movesKey, PgnError } from './pgn.js';
export { classifyOpening, openingFamily } from './openings.js';

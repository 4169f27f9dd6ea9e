/** The package's chess export (`chess-footprint/chess`): pure functions anyone can check against lichess. */
export { gameAccuracy, moveAccuracy, winPercentFromCp, evalToCp, type GameAccuracy, type LichessEval } from './accuracy.js';
export { movesKey, parsePgn, PgnError, type ParsedGame, type ParsedPly } from './pgn.js';

/** The package's chess export (`chess-footprint/chess`): pure functions, usable without the service. */
export { gameAccuracy, moveAccuracy, winPercentFromCp, evalToCp, type GameAccuracy, type LichessEval } from './accuracy.js';
export { gameJudgments, gameAcpl, judgePly, JUDGMENTS, type Judgment, type JudgmentOptions } from './judgments.js';
export { movesKey, parsePgn, splitPgnGames, PgnError, type ParsedGame, type ParsedPly } from './pgn.js';
export { classifyOpening, openingFamily } from './openings.js';

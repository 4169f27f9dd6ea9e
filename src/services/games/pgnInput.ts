import { parsePgn, PgnError, type ParsedGame } from '../../chess/pgn.js';
import { ApiError } from '../../errors.js';

const PGN_REASON: Record<PgnError['reason'], string> = {
  empty: 'empty PGN',
  'multi-game': 'multi-game PGN',
  moveless: 'moveless PGN',
  unparseable: 'unparseable PGN',
  'illegal-move': 'unparseable PGN (illegal move)',
  unsupported: 'unsupported PGN',
  'illegal-position': 'illegal position',
  'null-move': 'null move',
};

/**
 * Parses one PGN a caller sent (attach_pgn, upload_study_game): one game with at least one move;
 * every refusal is a 400 whose message starts with the rule it broke.
 */
export function parseSubmittedPgn(text: string): ParsedGame {
  try {
    return parsePgn(text, { requireMoves: true });
  } catch (err) {
    if (err instanceof PgnError) {
      // Parser messages that already start with their rule ("unparseable PGN: …") are not prefixed twice.
      const rule = PGN_REASON[err.reason];
      throw new ApiError(400, err.message.startsWith(`${rule}: `) ? err.message : `${rule}: ${err.message}`);
    }
    throw err;
  }
}

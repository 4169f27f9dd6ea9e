import { CLASSIFICATION_RULES } from '../src/chess/classification.js';
import { PHASE_RULE } from '../src/chess/phase.js';

/**
 * What an MCP client reads once, at initialize. Rules several tools share are stated here once
 * (the analysis tools point here instead of repeating them in every listing).
 */
export const SERVER_INSTRUCTIONS = [
  "chess-footprint serves one player's chess data: games synced from chess.com (siteA), lichess (siteB) and the English Chess Federation (fed, over-the-board), Stockfish reviews of them, aggregates, a study collection and durable coaching state.",
  "Start with get_profile (who, and how fresh: lastSyncedAt) and get_coaching_state (what was agreed). Game ids come from list_games. Prompts (coaching_session, review_game, weekly_review, prepare_next_round, quiz_me) give ready-made workflows; resources give the stored PGN of a game, the weekly report as Markdown, library games, the opening tree of the owner's games and, at chess-footprint://schema/{tool}, a tool's full field descriptions (tools/list gives them short).",
  "Personal tools and resources need the owner's token; the library, tournament and ECF-calculator tools need none. A failed call is a tool error whose text is {\"error\": …} naming the next step.",
  `Move classifications: ${CLASSIFICATION_RULES}`,
  `Phases: ${PHASE_RULE}`,
].join('\n\n');

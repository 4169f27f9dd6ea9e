import { CLASSIFICATION_RULES } from '../src/chess/classification.js';
import { PHASE_RULE } from '../src/chess/phase.js';

/** When each of the seven prompts is the right one (a test checks every prompt is named here). */
const PROMPT_GUIDE = [
  'coaching_session when the player wants to train or pick up where the last session stopped;',
  'review_game for one game they name (an id, "latest loss" or "2026-11-17 vs opponent");',
  'weekly_review to go over the last closed week;',
  'quiz_me for a drill on positions from their own games;',
  'review_openings for their opening moves beside lichess players at their rating;',
  'prepare_for_opponent before a game against a known lichess or chess.com player (the first pick of a player never scouted starts fetching their games: pick it again a minute later);',
  'prepare_next_round before a round of an over-the-board Swiss on chess-results, with the likely opponent’s online account when known.',
].join(' ');

/**
 * What an MCP client reads once, at initialize. Rules several tools share are stated here once
 * (the analysis tools point here instead of repeating them in every listing).
 */
export const SERVER_INSTRUCTIONS = [
  "chess-footprint serves one player's chess data: games synced from chess.com (siteA), lichess (siteB) and the English Chess Federation (fed, over-the-board), Stockfish reviews of them, aggregates, a study collection and durable coaching state.",
  "Start with get_profile (who, and how fresh: lastSyncedAt) and get_coaching_state (what was agreed). Game ids come from list_games. Resources give the stored PGN of a game, the weekly report as Markdown, library games, the opening tree of the owner's games and, at chess-footprint://schema/{tool}, a tool's full field descriptions (tools/list declares every output field but describes none).",
  `Prompts give ready-made workflows; each carries the data it needs in its own messages, so no resource has to be read. ${PROMPT_GUIDE}`,
  "Personal tools and resources need the owner's token; the library, tournament and ECF-calculator tools need none. A failed call is a tool error whose text is {\"error\": …} naming the next step.",
  `Move classifications: ${CLASSIFICATION_RULES}`,
  `Phases: ${PHASE_RULE}`,
].join('\n\n');

import type { AnyTool } from './defineTool.js';
import { getProfile } from './profile/get_profile.js';
import { getChessStats } from './aggregates/get_chess_stats.js';
import { getRatingProgress } from './aggregates/get_rating_progress.js';
import { listGames } from './games/list_games.js';
import { getGame } from './games/get_game.js';
import { getGameAnalysis } from './analysis/get_game_analysis.js';
import { getCriticalMoments } from './analysis/get_critical_moments.js';
import { attachPgn } from './games/attach_pgn.js';
import { requestGameReview } from './games/request_game_review.js';
import { getProblemLines } from './aggregates/get_problem_lines.js';
import { getWeeklyReport } from './aggregates/get_weekly_report.js';
import { getPuzzleStats } from './aggregates/get_puzzle_stats.js';
import { listStudyGames } from './study/list_study_games.js';
import { uploadStudyGame } from './study/upload_study_game.js';
import { requestStudyAnalysis } from './study/request_study_analysis.js';
import { deleteStudyGame } from './study/delete_study_game.js';
import { getWeaknessProfile } from './analysis/get_weakness_profile.js';
import { getCoachingState } from './coaching/get_coaching_state.js';
import { setTrainingFocus } from './coaching/set_training_focus.js';
import { addCoachingEntry } from './coaching/add_coaching_entry.js';
import { savePosition } from './coaching/save_position.js';
import { listSavedPositions } from './coaching/list_saved_positions.js';
import { removeSavedPosition } from './coaching/remove_saved_position.js';
import { listLibraryGames } from './library/list_library_games.js';
import { getLibraryGame } from './library/get_library_game.js';
import { getTournamentState } from './tournaments/get_tournament_state.js';
import { estimateRound1 } from './tournaments/estimate_round1.js';
import { estimatePairings } from './tournaments/estimate_pairings.js';
import { calculateEcfRatingChange } from './fed/calculate_ecf_rating_change.js';

/** The 29 tools, in the order of MCP tools/list, OpenAPI paths and llms.txt. */
export const tools: readonly AnyTool[] = [
  getProfile,
  getChessStats,
  getRatingProgress,
  listGames,
  getGame,
  getGameAnalysis,
  getCriticalMoments,
  attachPgn,
  requestGameReview,
  getProblemLines,
  getWeeklyReport,
  getPuzzleStats,
  listStudyGames,
  uploadStudyGame,
  requestStudyAnalysis,
  deleteStudyGame,
  getWeaknessProfile,
  getCoachingState,
  setTrainingFocus,
  addCoachingEntry,
  savePosition,
  listSavedPositions,
  removeSavedPosition,
  listLibraryGames,
  getLibraryGame,
  getTournamentState,
  estimateRound1,
  estimatePairings,
  calculateEcfRatingChange,
] as unknown as readonly AnyTool[];

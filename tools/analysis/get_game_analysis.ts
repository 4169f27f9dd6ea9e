import { AnalysisInput, AnalysisResponse } from '../../schemas/analysis.js';
import { CLASSIFICATION_RULES } from '../../src/chess/classification.js';
import { PHASE_RULE } from '../../src/chess/phase.js';
import { getGameAnalysis as run } from '../../src/services/review/index.js';
import { joinText, RULES_IN_INSTRUCTIONS, say } from '../outcomes.js';
import { defineTool } from '../defineTool.js';

export const getGameAnalysis = defineTool({
  name: 'get_game_analysis',
  title: 'Get per-ply analysis of a game',
  description: joinText([
    'Per-ply engine analysis of one of the owner\'s reviewed games, paged: fromPly (default 1; out of range → 1), limit 1-120 (default 40, clamped), side both|user (user: only the owner\'s moves); pagination echoes what was applied and nextFromPly continues.',
    say`Read-only: starts no engine work and spends no review quota (30 per minute). A game without a review answers ${200} with analysed: false and nextStep (request_game_review, or attach_pgn first when the game has no moves); an id that is not the owner's answers ${404}.`,
    'Conventions: evalBefore/evalAfter are raw engine scores in the side-to-move frame, so evalAfter is the opponent\'s view; evalBeforeMover/evalAfterMover restate both for the mover. centipawnLoss uses evaluations clamped to ±500 cp (capApplied), is 0 for the engine\'s first choice and never negative; lossReconciles says whether it equals evalBeforeMover.value − evalAfterMover.value (it may not when the cap applied, the move was the first choice, the difference was negative, or a mate score is involved). Mate scores: type mate, mateIn, value ±(100000 − |mateIn|).',
    'Every played move, best move, alternative and principal variation is replayed and legality-checked; a stored line that will not replay is cut at its last legal move (principalVariationTruncated). onlyMoveMargin = win% points between the engine\'s first and second choice; forcedMove = only one legal move.',
    { mcp: RULES_IN_INSTRUCTIONS, http: `${CLASSIFICATION_RULES} Phase: ${PHASE_RULE}` },
    'Concepts are deterministic tags (detector set v1; the output schema says what each looks for), each with the evidence it saw. Clocks and time spent appear where the game carries clock readings. humanDifficulty is always null (not modelled).',
  ]),
  access: 'personal',
  family: 'analysis',
  rest: { method: 'GET', path: '/api/v1/me/games/{id}/analysis' },
  input: AnalysisInput,
  output: AnalysisResponse,
  annotations: { readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: false },
  statuses: [401, 404, 429, 503],
  handler: (ctx, input) => run(ctx, input),
});

import { CriticalMomentsInput, CriticalMomentsResponse } from '../../schemas/analysis.js';
import { CLASSIFICATION_RULES } from '../../src/chess/classification.js';
import { getCriticalMoments as run } from '../../src/services/review/index.js';
import { joinText, RULES_IN_INSTRUCTIONS, say } from '../outcomes.js';
import { defineTool } from '../defineTool.js';

export const getCriticalMoments = defineTool({
  name: 'get_critical_moments',
  title: 'Get the critical moments of a game',
  description: joinText([
    'The turning points of one of the owner\'s reviewed games. Engine moments are the moves lichess would judge a blunder on this review\'s evaluations (≥ 15 win-probability points lost, or a forced mate allowed from −7.00 or better, or let go for +7.00 or less; type = their classification: blunder, or miss when the blunder let a winning chance go) and brilliancies (type brilliant). minCentipawnLoss ADDS derived moments (source derived, type null): any other ply conceding at least that many centipawns.',
    'severity: critical (≥ 40 win% lost, or a forced mate allowed or missed), major (≥ 25), moderate (otherwise; brilliancies are moderate). minSeverity drops moments below it (brilliancies exempt). maxMoments (1-40, default 40) keeps the most severe (severity, then win% lost, then earlier ply) and returns them in ply order; matching, matchingBySource and truncated say what was left out. side=user keeps the owner\'s moves.',
    'Each moment: the position (fen) before the move, what was played, the engine\'s first choice and continuation, the refutation (the engine\'s best line after the played move, eval from the opponent\'s point of view), a summary templated from the numbers (summarySource template, no language model), hints that narrow without naming the move (use them one at a time when coaching), a training question, and acceptableAnswers (the engine\'s first choice plus any stored alternative within 0.25 pawns). matchesKnownWeakness is always null (not built; null is not a checked-and-clear result).',
    say`Frames and the ±500 cp cap as in get_game_analysis. Read-only, starts no engine work (30 per minute); an unreviewed game answers analysed: false with nextStep; an id that is not the owner's answers ${404}.`,
    { mcp: RULES_IN_INSTRUCTIONS, http: CLASSIFICATION_RULES },
  ]),
  access: 'personal',
  family: 'analysis',
  rest: { method: 'GET', path: '/api/v1/me/games/{id}/critical-moments' },
  input: CriticalMomentsInput,
  output: CriticalMomentsResponse,
  annotations: { readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: false },
  statuses: [401, 404, 429, 503],
  handler: (ctx, input) => run(ctx, input),
});

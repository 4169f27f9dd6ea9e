import { z } from 'zod';
import { resolveGameRef } from '../src/services/games/index.js';
import { definePrompt, NEVER_INVENT, ownerOf, steps, type PromptDefinition } from './promptDefinition.js';
import { prepareForOpponent, prepareNextRound, reviewOpenings } from './prepPrompts.js';

export type { PromptDefinition, PromptPart } from './promptDefinition.js';
export { prepareForOpponent, prepareNextRound, reviewOpenings };

export const coachingSession = definePrompt({
  name: 'coaching_session',
  title: 'Coaching session',
  description: 'Continue the coaching from where it stopped: new games, weaknesses, positions due for a quiz; agree a focus and record the session.',
  arguments: z.object({
    minutes: z
      .string()
      .regex(/^\d{1,3}$/, { message: 'minutes must be a whole number of minutes' })
      .optional()
      .describe('How long the player has, in minutes (optional); the session is planned to fit'),
  }),
  personal: false,
  tools: [
    'get_coaching_state',
    'get_profile',
    'list_games',
    'get_weakness_profile',
    'list_saved_positions',
    'set_training_focus',
    'add_coaching_entry',
  ],
  render: ({ minutes }) =>
    [
      `Run a coaching session with me${minutes ? ` of about ${minutes} minutes` : ''}, continuing from what we agreed before.`,
      steps([
        'Call get_coaching_state: read the active focuses, open assignments, the last entries and lastSessionAt.',
        'Call get_profile to see how fresh the data is (lastSyncedAt per source).',
        'Call list_games with from set to the date of lastSessionAt (or the last 30 days when there was no session) to see what I have played since.',
        'Call get_weakness_profile and compare it with the active focuses: say which the evidence supports and which it does not.',
        'Call list_saved_positions with dueForQuiz true and quiz me on up to three of them, one at a time, before showing any answer.',
        'Agree with me to keep, revise or resolve a focus, and record it with set_training_focus.',
        'Record each quiz as add_coaching_entry kind result with positionId and correct, and finish with add_coaching_entry kind session summarising what we did and agreed.',
      ]),
      NEVER_INVENT,
    ].join('\n\n'),
});

export const reviewGame = definePrompt({
  name: 'review_game',
  title: 'Review one game',
  description: 'Walk through one game: the summary first, then each critical moment as a question before its answer, saving the best as positions to quiz later.',
  arguments: z.object({
    gameId: z
      .string()
      .min(1)
      .max(100)
      .describe('The game: an id from list_games, latest, latest win/loss/draw, or its day and opponent as "2026-11-17 vs pawn_wizard158" (completion offers them)'),
  }),
  personal: true,
  tools: ['get_game', 'request_game_review', 'get_critical_moments', 'get_game_analysis', 'save_position'],
  render: ({ gameId: named }, owner) => {
    const gameId = resolveGameRef(ownerOf(owner), named);
    return [
      `Review my game ${gameId}${named === gameId ? '' : ` (${named})`} with me.`,
      steps([
        `Call get_game with id ${gameId}. If review is null, call request_game_review with id ${gameId} and wait 45 (attach_pgn comes first when the game has no moves; tell me so rather than guessing them).`,
        'Give me the summary first: opening, result, both accuracies and the classification counts, in a few sentences.',
        `Call get_critical_moments with id ${gameId} and side user. Take the moments one at a time, in order: show the position (fen) and ask me what I would play, using the hints one by one if I am stuck; only then reveal the engine's choice, the refutation and the summary.`,
        `When I want more detail on a stretch of the game, call get_game_analysis with id ${gameId} and fromPly at that moment.`,
        `Save the one to three moments most worth repeating with save_position (gameId ${gameId}, the moment's ply minus one so the position is before the move, a short label and why).`,
      ]),
      NEVER_INVENT,
    ].join('\n\n');
  },
});

export const weeklyReview = definePrompt({
  name: 'weekly_review',
  title: 'Weekly review',
  description: "Go over the last closed week: the frozen weekly report and that week's reviewed games.",
  arguments: z.object({}),
  personal: false,
  tools: ['get_weekly_report', 'list_games', 'get_critical_moments', 'add_coaching_entry'],
  render: () =>
    [
      'Go over my last week with me.',
      steps([
        'Call get_weekly_report. Summarise each source: games, results, rating movement, best win and toughest defeat; then puzzles.',
        'Call list_games with from = weekStart and to = weekEnd of that report and sort date-asc; pick the games whose accuracy is set (reviewed or with a platform accuracy).',
        'For the two or three games that decided the week (the best win, the toughest defeat, the lowest accuracy), call get_critical_moments and name the one moment of each that mattered most.',
        'Close with one thing to keep and one thing to change, and record it with add_coaching_entry kind note.',
      ]),
      'If get_weekly_report says no report exists yet, say when the next is due (the message says) and stop. ' + NEVER_INVENT,
    ].join('\n\n'),
});

export const quizMe = definePrompt({
  name: 'quiz_me',
  title: 'Quiz me',
  description: 'A drill from my own games: saved positions due for a quiz, then critical moments from recent reviews; each answer recorded as a result.',
  arguments: z.object({
    count: z
      .string()
      .regex(/^([1-9]|1\d|20)$/, { message: 'count must be a whole number from 1 to 20' })
      .optional()
      .describe('How many positions to ask (1 to 20; default 5)'),
  }),
  personal: false,
  tools: ['list_saved_positions', 'list_games', 'get_critical_moments', 'add_coaching_entry', 'save_position'],
  render: ({ count }) =>
    [
      `Quiz me on ${count ?? '5'} positions from my own games.`,
      steps([
        'Call list_saved_positions with dueForQuiz true and take the positions in order.',
        'If that gives fewer than asked, call list_games with sort date-desc, take recent games whose accuracy is set, and call get_critical_moments with side user and minSeverity major for each until there are enough moments.',
        'For each position: show the FEN and whose move it is and ask for a move. Do not reveal the answer first. Accept any of acceptableAnswers (moments) or bestMoveUci (saved positions).',
        'After each answer, say whether it was right and show the engine line. For a saved position, record add_coaching_entry kind result with positionId and correct. For a moment, record add_coaching_entry kind result with the body naming the game and ply, and offer to keep it with save_position.',
        'End with the score, and which kind of position went wrong most.',
      ]),
      NEVER_INVENT,
    ].join('\n\n'),
});

/** In prompts/list order. */
export const prompts: readonly PromptDefinition[] = [coachingSession, reviewGame, weeklyReview, prepareNextRound, quizMe, prepareForOpponent, reviewOpenings];

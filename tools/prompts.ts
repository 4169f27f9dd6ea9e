import { z } from 'zod';
import { ScoutProvider, ScoutUsername } from '../schemas/prep.js';

/**
 * The workflows an agent would otherwise have to discover tool by tool. Each prompt is one
 * object: its arguments as a zod object of strings (MCP prompt arguments are strings), the tools
 * its message names (a test checks every one exists in the registry) and the message itself.
 */
export interface PromptDefinition<A extends z.ZodObject = z.ZodObject> {
  name: string;
  title: string;
  description: string;
  arguments: A;
  /** Every tool the message names, in the order it asks for them. */
  tools: readonly string[];
  /** The resource templates (resources/templates/list) the message reads, where it reads any. */
  resources?: readonly string[];
  // Method syntax (bivariant parameters) lets one list hold prompts with different arguments.
  render(args: z.output<A>): string;
}

function definePrompt<A extends z.ZodObject>(def: PromptDefinition<A>): PromptDefinition<A> {
  return def;
}

const steps = (lines: readonly string[]) => lines.map((l, i) => `${i + 1}. ${l}`).join('\n');

const NEVER_INVENT =
  'Never invent moves, evaluations or results: when a tool says a game has no moves or no review, say so and offer the next step it names.';

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
    gameId: z.string().min(1).max(100).describe('Game id from list_games'),
  }),
  tools: ['get_game', 'request_game_review', 'get_critical_moments', 'get_game_analysis', 'save_position'],
  render: ({ gameId }) =>
    [
      `Review my game ${gameId} with me.`,
      steps([
        `Call get_game with id ${gameId}. If review is null, call request_game_review with id ${gameId} and wait 45 (attach_pgn comes first when the game has no moves; tell me so rather than guessing them).`,
        'Give me the summary first: opening, result, both accuracies and the classification counts, in a few sentences.',
        `Call get_critical_moments with id ${gameId} and side user. Take the moments one at a time, in order: show the position (fen) and ask me what I would play, using the hints one by one if I am stuck; only then reveal the engine's choice, the refutation and the summary.`,
        `When I want more detail on a stretch of the game, call get_game_analysis with id ${gameId} and fromPly at that moment.`,
        `Save the one to three moments most worth repeating with save_position (gameId ${gameId}, the moment's ply minus one so the position is before the move, a short label and why).`,
      ]),
      NEVER_INVENT,
    ].join('\n\n'),
});

export const weeklyReview = definePrompt({
  name: 'weekly_review',
  title: 'Weekly review',
  description: "Go over the last closed week: the frozen weekly report and that week's reviewed games.",
  arguments: z.object({}),
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

const SITE = { siteA: 'chess.com', siteB: 'lichess' } as const;
const PLAYER_URI = 'chess-footprint://players/{provider}/{username}';
const PLAYER_TREE_URI = 'chess-footprint://players/{provider}/{username}/openings/{colour}{?moves}';
const OWN_TREE_URI = 'chess-footprint://openings/{colour}{?moves}';
const DEVIATIONS_URI = 'chess-footprint://repertoire/{colour}/deviations';
const PEERS_URI = 'chess-footprint://openings/{colour}/peers{?moves}';

const providerArg = ScoutProvider.describe('Where they play: lichess (siteB) or chess.com (siteA)');
const usernameArg = ScoutUsername.describe('Their username on that site');

/** The steps that scout an online account and read it: shared by both preparation prompts. */
function scoutSteps(provider: 'siteA' | 'siteB', username: string, mine: 'white' | 'black' | undefined): string[] {
  const player = `chess-footprint://players/${provider}/${username}`;
  const theirs = mine === undefined ? undefined : mine === 'white' ? 'black' : 'white';
  return [
    `Read the resource ${player} (their ${SITE[provider]} games). While scout.state is queued or fetching, tell me the progress and read it again after a few seconds until it is ok; if it is error, tell me its message and stop there.`,
    'Summarise them from that answer: results by colour and by time class, recent form and rating trend, saying how many games each figure rests on.',
    `${theirs ? `They will have ${theirs}: read` : 'For each colour they may have, read'} ${player}/openings/${theirs ?? '{colour}'} and follow their most played moves a few moves deep (moves= the lineMoves of each step), naming each move's share and score; then name their worstLines of that colour.`,
    `Read meetingPoints.${theirs ?? '{colour}'} for the positions both their games and mine reach and how each of us scores there, and read chess-footprint://openings/${mine ?? '{colour}'}?moves= with the lineMoves of the most important one to see what I play from there.`,
  ];
}

export const prepareForOpponent = definePrompt({
  name: 'prepare_for_opponent',
  title: 'Prepare for an online opponent',
  description: "Scout a lichess or chess.com player's public games and set them against my own: their opening tree, form and rating, weak lines, and where our repertoires meet.",
  arguments: z.object({
    provider: providerArg,
    username: usernameArg,
    colour: z.enum(['white', 'black']).optional().describe('My colour in the coming game, when known'),
  }),
  tools: ['list_games', 'get_game'],
  resources: [PLAYER_URI, PLAYER_TREE_URI, OWN_TREE_URI, DEVIATIONS_URI],
  render: ({ provider, username, colour }) =>
    [
      `Help me prepare for a game against ${username} on ${SITE[provider]}${colour ? `, in which I have ${colour}` : ''}.`,
      steps([
        ...scoutSteps(provider, username, colour),
        `If I have declared a repertoire for ${colour ?? 'my colour'}, read chess-footprint://repertoire/${colour ?? '{colour}'}/deviations and check whether it has an answer to what they play (opponentsUnanswered, and the lines I leave it myself).`,
        'Call list_games with lineMoves set to the line you recommend to find my own games in it, and get_game for the most instructive one.',
        'Propose a plan: the line to aim for and the one to avoid, each with the figures behind it.',
      ]),
      'Their games are public games they played online; say how many games a claim rests on, and do not claim anything the resources did not return. ' + NEVER_INVENT,
    ].join('\n\n'),
});

export const prepareNextRound = definePrompt({
  name: 'prepare_next_round',
  title: 'Prepare the next round',
  description:
    'Before a round of an over-the-board Swiss: the tournament state, the pairing estimate with its what-if table, what is known of the likely opponents, and their online games where I give their account.',
  arguments: z.object({
    tnr: z
      .string()
      .regex(/^\d{1,10}$/, { message: 'tnr is the chess-results tournament number (digits)' })
      .describe('chess-results.com tournament number (the digits after tnr in the URL)'),
    player: z.string().min(1).max(100).describe('Your name as on the starting list (matched case-insensitively)'),
    opponentProvider: providerArg.optional().describe('Where the likely opponent plays online, when I know it: lichess (siteB) or chess.com (siteA)'),
    opponentUsername: usernameArg.optional().describe('The likely opponent’s username there'),
  }),
  tools: ['get_tournament_state', 'estimate_pairings', 'list_games', 'get_problem_lines'],
  resources: [PLAYER_URI, PLAYER_TREE_URI, OWN_TREE_URI],
  render: ({ tnr, player, opponentProvider, opponentUsername }) =>
    [
      `Help me prepare for the next round of tournament ${tnr}; I am ${player} on the starting list.`,
      steps([
        `Call get_tournament_state with tnr ${tnr}: the current round, my points and results so far, and the standings around me.`,
        `Call estimate_pairings with tnr ${tnr} and target ${player}: my most likely opponent and colour, and the what-if table for each result of my current game. Say plainly that it is an estimate.`,
        'For each likely opponent, call list_games with opponent set to their surname to see whether I have played them before, and how it went.',
        'With the likely colour known, call get_problem_lines and name the lines of that colour I struggle in, so I can check my preparation.',
        ...(opponentProvider && opponentUsername
          ? scoutSteps(opponentProvider, opponentUsername, undefined).map((step, i) =>
              i === 0 ? `The likely opponent plays online as ${opponentUsername} on ${SITE[opponentProvider]}: with the likely colour from estimate_pairings in mind, ${step[0].toLowerCase()}${step.slice(1)}` : step,
            )
          : [
              `Ask me whether the likely opponent plays online; given their lichess or chess.com username, read ${PLAYER_URI} (provider siteB for lichess, siteA for chess.com) and their tree at ${PLAYER_TREE_URI}, as the prompt prepare for opponent does, beside my own tree at ${OWN_TREE_URI}.`,
            ]),
      ]),
      'Do not claim anything about an opponent that the tools and resources did not return. ' + NEVER_INVENT,
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

export const reviewOpenings = definePrompt({
  name: 'review_openings',
  title: 'Review my openings at my level',
  description: "Go over my opening tree beside what lichess players at my rating play and score: the moves of mine that score worse than my peers' best choice or that they rarely play, with my own games in them.",
  arguments: z.object({
    colour: z.enum(['white', 'black']).optional().describe('Only my games with this colour (default: both)'),
  }),
  tools: ['get_problem_lines', 'list_games', 'get_game'],
  resources: [PEERS_URI, OWN_TREE_URI],
  render: ({ colour }) => {
    const c = colour ?? '{colour}';
    return [
      `Review my openings${colour ? ` as ${colour}` : ' as white and as black'} against players at my level.`,
      steps([
        `Read chess-footprint://openings/${c}/peers${colour ? '' : ' for each colour'}. While status.state is queued or fetching, tell me the progress and read it again after a few seconds; if it is no-token, token-refused, no-level or error, tell me status.message in one sentence and stop there. Name level (the band and speed compared, and where the band came from).`,
        'Take the findings in order. For each: the line (lineMoves) and my move, my games and score with it, the peers\' share and score with it, and their best-scoring alternative with its score; say whether it is scoresWorse, rare or both.',
        `For the first three findings, read chess-footprint://openings/${c}/peers?moves= with the finding's lineMoves to see every move of mine there beside the peers', and chess-footprint://openings/${c}?moves= with the same line for my accuracy and evaluation after each move.`,
        'Call get_problem_lines and say which findings fall inside a problem line of mine (the same moves), as those two views agree.',
        'Call list_games with lineMoves set to the finding\'s line plus my move to show the games behind the worst finding, and get_game for the most recent one.',
        'Close with one move to change and the alternative to learn, with the figures behind it.',
      ]),
      "The peers' figures are lichess's opening explorer at my rating band, not an engine verdict: say how many games each figure rests on. " + NEVER_INVENT,
    ].join('\n\n');
  },
});

/** In prompts/list order. */
export const prompts: readonly PromptDefinition[] = [coachingSession, reviewGame, weeklyReview, prepareNextRound, quizMe, prepareForOpponent, reviewOpenings];

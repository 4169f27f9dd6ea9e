import { z } from 'zod';
import { ScoutProvider, ScoutUsername } from '../schemas/prep.js';
import { StatTimeClass } from '../schemas/common.js';
import type { Colour } from '../src/chess/types.js';
import type { PersonalCtx } from '../src/context.js';
import { ApiError } from '../src/errors.js';
import { ownScout, readPlayer, repertoireDeviations, scoutTree, type ScoutProviderId } from '../src/services/prep/index.js';
import { PEER_MIN_OWNER_GAMES, PEER_PLIES, peersView } from '../src/services/peers/index.js';
import { openingTree } from '../src/services/stats/index.js';
import { tournamentsLookedAt } from '../src/services/tournaments/index.js';
import { attach, cutSentence, cutTree, movesQuery } from './promptData.js';
import { definePrompt, NEVER_INVENT, ownerOf, steps, text, type PromptPart } from './promptDefinition.js';

/**
 * The three prompts that rest on preparation data: each reads what it needs with the owner's context and
 * carries it in its own messages (issue 43), since Claude Desktop's model never reads a resource.
 */

const SITE = { siteA: 'chess.com', siteB: 'lichess' } as const;
const PLAYER_URI = 'chess-footprint://players/{provider}/{username}';
const PLAYER_TREE_URI = 'chess-footprint://players/{provider}/{username}/openings/{colour}{?moves}';
const OWN_TREE_URI = 'chess-footprint://openings/{colour}{?moves}';
const DEVIATIONS_URI = 'chess-footprint://repertoire/{colour}/deviations';
const PEERS_URI = 'chess-footprint://openings/{colour}/peers{?moves}';

const COLOURS = ['white', 'black'] as const satisfies readonly Colour[];
/** The repertoire deviations' game rows a prompt carries, newest first (the groups come whole). */
const DEVIATION_ROWS = 10;
const other = (c: Colour): Colour => (c === 'white' ? 'black' : 'white');

const providerArg = ScoutProvider.describe('Where they play: lichess (siteB) or chess.com (siteA)');
const usernameArg = ScoutUsername.describe('Their username on that site');

/** What an opponent's part of a prompt says and carries. */
interface OpponentPart {
  /** false while their games are being fetched, or when the fetch failed: the steps after it wait. */
  ready: boolean;
  steps: string[];
  parts: PromptPart[];
}

/**
 * A public player, read as chess-footprint://players/… reads them (a player never scouted is scouted
 * now, against the owner's scout limit), with their tree of each colour they may have, where their games
 * meet the owner's, the owner's tree at the first meeting point and the owner's repertoire deviations.
 * `mine` is the owner's colour when known; both colours otherwise.
 */
async function opponentPart(ctx: PersonalCtx, provider: ScoutProviderId, username: string, mine: Colour | undefined): Promise<OpponentPart> {
  const report = await readPlayer(ctx, provider, username);
  const playerUri = `chess-footprint://players/${provider}/${username}`;
  const { scout } = report;
  const parts: PromptPart[] = [attach(playerUri, report)];
  if (scout.state === 'error') {
    return { ready: false, parts, steps: [`Fetching ${username}'s ${SITE[provider]} games failed: ${scout.message ?? 'no reason given'}. Tell me that in one sentence and stop the preparation of this player there.`] };
  }
  if (scout.state !== 'ok' && scout.state !== 'demo') {
    const p = scout.progress;
    const sofar = p ? `${p.phase}, ${p.fetched} games read so far${p.total ? ` (${p.done ?? 0} of ${p.total})` : ''}` : 'waiting for its turn';
    return {
      ready: false,
      parts,
      steps: [
        `${username} had never been scouted: picking this prompt started fetching their ${SITE[provider]} games (the newest ${scout.bounds.maxGames} of the last ${scout.bounds.months} months). It is ${scout.state} now (${sofar}); their report as it stands is attached (${playerUri}). Tell me how far it has got, and to pick this prompt again in a minute: it will then carry their games, their tree and where our games meet.`,
      ],
    };
  }
  const out: string[] = [`Summarise them from the attached report (${playerUri}): results by colour and by time class, recent form and rating trend, saying how many games each figure rests on.`];
  for (const theirs of mine ? [other(mine)] : COLOURS) {
    const own = other(theirs);
    const row = ownScout(ctx, provider, username);
    const tree = cutTree((moves) => scoutTree(ctx, row, theirs, moves), (q) => `${playerUri}/openings/${theirs}${q}`);
    parts.push(...tree.parts);
    out.push(
      `${mine ? `They will have ${theirs}.` : `If they have ${theirs}:`} ${cutSentence(`Their ${theirs} tree (${playerUri}/openings/${theirs})`, tree)} Follow their most played moves in it, naming each move's share and score; then name their worstLines of ${theirs} from the report.`,
    );
    const meeting = report.meetingPoints[theirs][0];
    if (meeting) {
      const uri = `chess-footprint://openings/${own}${movesQuery(meeting.lineMoves)}`;
      parts.push(attach(uri, openingTree(ctx, own, meeting.lineMoves)));
      out.push(
        `Take meetingPoints.${theirs} from the report: the positions both their ${theirs} games and my ${own} games reach, and how each of us scores there. My own tree at the first of them (${meeting.lineMoves}) is attached (${uri}): say what I play from there and how it scores.`,
      );
    } else {
      out.push(`meetingPoints.${theirs} is empty: none of my ${own} games reach a position their ${theirs} games reach in the first 16 plies; say so.`);
    }
    try {
      const deviations = await repertoireDeviations(ctx, own);
      const uri = `chess-footprint://repertoire/${own}/deviations`;
      // rows lists games one by one (30 KB for the demo's 250): the prompt needs the groups, so rows are cut.
      const cut = deviations.rows.length > DEVIATION_ROWS;
      parts.push(attach(uri, cut ? { ...deviations, rows: deviations.rows.slice(0, DEVIATION_ROWS) } : deviations));
      out.push(
        `Where my games leave my ${own} repertoire is attached (${uri}${cut ? `; rows cut to the ${DEVIATION_ROWS} newest of ${deviations.rows.length}, the rest as the resource gives it` : ''}): check whether it has an answer to what they play (opponentsUnanswered, and the lines I leave it myself, ownDeviations).`,
      );
    } catch (err) {
      if (!(err instanceof ApiError) || err.status !== 404) throw err;
      out.push(`I have not declared a ${own} repertoire, so chess-footprint://repertoire/${own}/deviations has nothing to attach (${err.message}). Only I can declare one; suggest it, and carry on without.`);
    }
  }
  return { ready: true, parts, steps: out };
}

export const prepareForOpponent = definePrompt({
  name: 'prepare_for_opponent',
  title: 'Prepare for an online opponent',
  description:
    "Scout a lichess or chess.com player's public games and set them against my own: their opening tree, form and rating, weak lines, and where our repertoires meet. Carries the data itself; a player never scouted is fetched first (pick it again a minute later).",
  arguments: z.object({
    provider: providerArg,
    username: usernameArg,
    colour: z.enum(['white', 'black']).optional().describe('My colour in the coming game, when known'),
  }),
  tools: ['list_games', 'get_game'],
  resources: [PLAYER_URI, PLAYER_TREE_URI, OWN_TREE_URI, DEVIATIONS_URI],
  personal: true,
  render: async ({ provider, username, colour }, owner) => {
    const them = await opponentPart(ownerOf(owner), provider, username, colour);
    const head = `Help me prepare for a game against ${username} on ${SITE[provider]}${colour ? `, in which I have ${colour}` : ''}. Everything you need is attached below this message.`;
    const body = them.ready
      ? steps([
          ...them.steps,
          'Call list_games with lineMoves set to the line you recommend to find my own games in it, and get_game for the most instructive one.',
          'Propose a plan: the line to aim for and the one to avoid, each with the figures behind it.',
        ])
      : them.steps.join('\n');
    const close = 'Their games are public games they played online; say how many games a claim rests on, and do not claim anything the attached data and the tools did not give. ' + NEVER_INVENT;
    return [text([head, body, close].join('\n\n')), ...them.parts];
  },
});

export const prepareNextRound = definePrompt({
  name: 'prepare_next_round',
  title: 'Prepare the next round',
  description:
    'Before a round of an over-the-board Swiss: the tournament state, the pairing estimate with its what-if table, what is known of the likely opponents, and their online games (carried in the prompt) where I give their account.',
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
  personal: true,
  render: async ({ tnr, player, opponentProvider, opponentUsername }, owner) => {
    const ctx = ownerOf(owner);
    tournamentsLookedAt(ctx).add(ctx.user.id, tnr);
    const online = opponentProvider && opponentUsername ? await opponentPart(ctx, opponentProvider, opponentUsername, undefined) : null;
    const round = [
      `Call get_tournament_state with tnr ${tnr}: the current round, my points and results so far, and the standings around me.`,
      `Call estimate_pairings with tnr ${tnr} and target ${player}: my most likely opponent and colour, and the what-if table for each result of my current game. Say plainly that it is an estimate.`,
      'For each likely opponent, call list_games with opponent set to their surname to see whether I have played them before, and how it went.',
      'With the likely colour known, call get_problem_lines and name the lines of that colour I struggle in, so I can check my preparation.',
    ];
    const theirs = online
      ? online.ready
        ? [`The likely opponent plays online as ${opponentUsername} on ${SITE[opponentProvider!]}; with the likely colour from estimate_pairings in mind, use what is attached for them:`, ...online.steps]
        : online.steps
      : [
          `Ask me whether the likely opponent plays online. If they do, I can pick this prompt again with opponentProvider (siteB for lichess, siteA for chess.com) and opponentUsername: it then carries their games, their tree and where our games meet, as the prompt prepare for opponent does (${PLAYER_URI}, ${PLAYER_TREE_URI}, beside my own ${OWN_TREE_URI}).`,
        ];
    const message = [
      `Help me prepare for the next round of tournament ${tnr}; I am ${player} on the starting list.`,
      steps([...round, ...theirs]),
      'Do not claim anything about an opponent that the tools and the attached data did not give. ' + NEVER_INVENT,
    ].join('\n\n');
    return [text(message), ...(online?.parts ?? [])];
  },
});

export const reviewOpenings = definePrompt({
  name: 'review_openings',
  title: 'Review my openings at my level',
  description:
    "Go over my opening tree beside what lichess players at my rating play and score: the moves of mine that score worse than my peers' best choice or that they rarely play, with my own games in them. Carries the data itself; the first pick starts fetching the peers' figures (pick it again a minute later).",
  arguments: z.object({
    colour: z.enum(['white', 'black']).optional().describe('Only my games with this colour (default: both)'),
    band: z
      .string()
      .regex(/^\d{1,4}$/, { message: 'band is a lichess rating group: 0, 1000, 1200 … 2200, 2500' })
      .optional()
      .describe('A lichess rating group to compare with (0, 1000, 1200 … 2200, 2500), when my rating does not place me'),
    timeClass: StatTimeClass.optional().describe('The time class to compare (default: the one I play most)'),
  }),
  tools: ['get_problem_lines', 'list_games', 'get_game'],
  resources: [PEERS_URI, OWN_TREE_URI],
  personal: true,
  render: async ({ colour, band, timeClass }, owner) => {
    const ctx = ownerOf(owner);
    const level = { band: band === undefined ? undefined : Number(band), timeClass };
    const parts: PromptPart[] = [];
    const perColour: string[] = [];
    let ready = false;
    for (const c of colour ? [colour] : COLOURS) {
      const view = peersView(ctx, c, level);
      const uri = `chess-footprint://openings/${c}/peers`;
      parts.push(attach(uri, view));
      const { state, message, cached, positions, progress } = view.status;
      if (state === 'queued' || state === 'fetching') {
        const sofar = progress ? `${progress.done} of ${progress.total} positions` : `${cached} of ${positions} positions cached`;
        perColour.push(`As ${c}: the peers' figures are being fetched from lichess's opening explorer now (${state}, ${sofar}; ${uri} attached as it stands). Tell me how far it has got, and to pick this prompt again in a minute.`);
        continue;
      }
      if (state !== 'ok' && state !== 'partial') {
        // The view's message names band= and timeClass=, which are this prompt's arguments too.
        perColour.push(`As ${c}: nothing to compare (${state}): tell me "${message ?? state}" in one sentence (band and timeClass are arguments of this prompt: I can pick it again with them), and go no further with ${c}.`);
        continue;
      }
      if (!view.findings.length) {
        perColour.push(`As ${c}: no findings (${positions} of my positions compared, a position counts when at least ${PEER_MIN_OWNER_GAMES} of my games reach it in the first ${PEER_PLIES} plies): say so, with that figure (${uri} attached).`);
        continue;
      }
      ready = true;
      const tree = cutTree((moves) => openingTree(ctx, c, moves), (q) => `chess-footprint://openings/${c}${q}`);
      parts.push(...tree.parts);
      // Findings often share a line (two of my moves in one position): each position is attached once.
      const attached = new Set(parts.flatMap((p) => (p.type === 'resource' ? [p.resource.uri] : [])));
      const once = (uri: string, read: () => unknown) => {
        if (!attached.has(uri)) parts.push(attach(uri, read()));
        attached.add(uri);
      };
      const lines: string[] = [];
      for (const f of view.findings.slice(0, 3)) {
        const q = movesQuery(f.lineMoves);
        once(`${uri}${q}`, () => peersView(ctx, c, { ...level, moves: f.lineMoves }));
        once(`chess-footprint://openings/${c}${q}`, () => openingTree(ctx, c, f.lineMoves));
        lines.push(`${f.lineMoves || '(the start)'}: ${f.san}`);
      }
      perColour.push(
        `As ${c}: my openings beside my peers are attached (${uri}${state === 'partial' ? `; partial: ${cached} of ${positions} positions compared, ${message ?? ''}` : ''}). Name level (the band and speed compared, and where the band came from). ${cutSentence(`My own ${c} tree (chess-footprint://openings/${c})`, tree)}` +
          (lines.length ? ` For the first ${lines.length} finding${lines.length === 1 ? '' : 's'} (${lines.join('; ')}), the peers' view and my tree at its line are attached too (?moves= the finding's lineMoves).` : ''),
      );
    }
    const message = [
      `Review my openings${colour ? ` as ${colour}` : ' as white and as black'} against players at my level. What you need is attached below this message.`,
      perColour.join('\n'),
      ready
        ? steps([
            'Take the findings in order. For each: the line (lineMoves) and my move, my games and score with it, the peers\' share and score with it, and their best-scoring alternative with its score; say whether it is scoresWorse, rare or both.',
            "For the first three findings, set every move of mine at the finding's line beside the peers' (the attached peers view at that line) and my accuracy and evaluation after each move (my attached tree at that line).",
            'Call get_problem_lines and say which findings fall inside a problem line of mine (the same moves), as those two views agree.',
            "Call list_games with lineMoves set to the finding's line plus my move to show the games behind the worst finding, and get_game for the most recent one.",
            'Close with one move to change and the alternative to learn, with the figures behind it.',
          ])
        : 'Stop there: there are no findings to go over yet.',
      "The peers' figures are lichess's opening explorer at my rating band, not an engine verdict: say how many games each figure rests on. " + NEVER_INVENT,
    ].join('\n\n');
    return [text(message), ...parts];
  },
});

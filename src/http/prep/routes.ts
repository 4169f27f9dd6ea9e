import { z } from 'zod';
import {
  ColourInput,
  PlayerInput,
  PlayerReport,
  Removed,
  Repertoire,
  RepertoireDeviations,
  RepertoireInput,
  REPERTOIRE_PGN_MAX_CHARS,
  ScoutInput,
  ScoutList,
  ScoutProvider,
  ScoutStatus,
  ScoutTree,
  ScoutUsername,
} from '../../../schemas/prep.js';
import { callCtx, type PersonalCtx } from '../../context.js';
import {
  declareRepertoire,
  listScouts,
  loadRepertoire,
  notScouted,
  ownScout,
  playerReport,
  removeRepertoire,
  repertoireDeviations,
  scoutRuns,
  scoutTree,
} from '../../services/prep/index.js';
import { defineSettingsRoute, signedIn, type SettingsCtx, type SettingsRoute } from '../settings/route.js';

/** The owner's context for a preparation route (the router has charged the owner's personal bucket). */
function owner(ctx: SettingsCtx): PersonalCtx {
  const user = signedIn(ctx);
  return callCtx(ctx.deps, user, { surface: 'rest', key: user.id }) as PersonalCtx;
}

const Colour = z.enum(['white', 'black']).describe('white or black');
const TreeInput = z
  .object({
    provider: ScoutProvider,
    username: ScoutUsername,
    colour: Colour.describe('The scouted player’s colour'),
    moves: z.string().max(600).optional().describe('Space-separated SAN from move 1 (e.g. "e4 c5"); omit for the start'),
  })
  .strict();

const PLAYER = '/api/v1/prep/players/{provider}/{username}' as const;
const REPERTOIRE = '/api/v1/prep/repertoire/{colour}' as const;

/** The preparation routes (issue 29), beside the settings API and derived the same way; OpenAPI tag `prep`. */
export const PREP_ROUTES: readonly SettingsRoute[] = [
  defineSettingsRoute({
    operationId: 'prep_list_scouts',
    summary: 'Players I scouted',
    description: 'Every public player the owner scouted, with the state of its fetch.',
    method: 'GET',
    path: '/api/v1/prep/scouts',
    access: 'signed-in',
    tag: 'prep',
    input: z.object({}).strict(),
    output: ScoutList,
    errors: [401, 403, 429, 503],
    handler: (ctx) => {
      const c = owner(ctx);
      const runs = scoutRuns(c);
      return { scouts: listScouts(c.store, c.user.id).map((r) => runs.statusOf(r)) };
    },
  }),
  defineSettingsRoute({
    operationId: 'prep_scout_player',
    summary: 'Scout a public player',
    description:
      "Fetches a lichess or chess.com player's recent public games in the background (the newest maxGames of the last months months; default 500 and 12) and answers 202 at once; a repeat fetches only what is new. Poll GET " +
      `${PLAYER} for progress. Only a username is taken, never a URL. Spends one unit of the owner's scout bucket (429 when empty).`,
    method: 'POST',
    path: '/api/v1/prep/scouts',
    access: 'signed-in',
    tag: 'prep',
    input: ScoutInput,
    output: ScoutStatus,
    status: 202,
    errors: [400, 401, 403, 415, 429, 503],
    handler: (ctx, input) => {
      const c = owner(ctx);
      return scoutRuns(c).start(c.user.id, input.provider, input.username, { maxGames: input.maxGames, months: input.months });
    },
  }),
  defineSettingsRoute({
    operationId: 'prep_get_player',
    summary: 'What is known of a scouted player',
    description:
      'Their results by colour and time class, recent form, rating trend, the lines where they score worst, and where the owner’s own games meet theirs; with the fetch state. 404 when the owner has not scouted the player (another owner’s scout is not found either).',
    method: 'GET',
    path: PLAYER,
    access: 'signed-in',
    tag: 'prep',
    input: PlayerInput,
    output: PlayerReport,
    errors: [400, 401, 403, 404, 429, 503],
    handler: (ctx, input) => {
      const c = owner(ctx);
      return playerReport(c, ownScout(c, input.provider, input.username));
    },
  }),
  defineSettingsRoute({
    operationId: 'prep_player_openings',
    summary: 'A scouted player’s opening tree',
    description: 'Their games with one colour after moves: each next move with games, results, their score and its share of their games at that point.',
    method: 'GET',
    path: `${PLAYER}/openings/{colour}`,
    access: 'signed-in',
    tag: 'prep',
    input: TreeInput,
    output: ScoutTree,
    errors: [400, 401, 403, 404, 429, 503],
    handler: (ctx, input) => {
      const c = owner(ctx);
      return scoutTree(c, ownScout(c, input.provider, input.username), input.colour, input.moves ?? '');
    },
  }),
  defineSettingsRoute({
    operationId: 'prep_forget_player',
    summary: 'Forget a scouted player',
    description: 'Removes the owner’s scout of the player and every game it fetched.',
    method: 'DELETE',
    path: PLAYER,
    access: 'signed-in',
    tag: 'prep',
    input: PlayerInput,
    output: Removed,
    errors: [400, 401, 403, 404, 429, 503],
    handler: (ctx, input) => {
      const c = owner(ctx);
      if (!scoutRuns(c).forget(c.user.id, input.provider, input.username)) throw notScouted(input.provider, input.username.toLowerCase());
      return { removed: true };
    },
  }),
  defineSettingsRoute({
    operationId: 'prep_get_repertoire',
    summary: 'My repertoire of one colour',
    description: 'The declared repertoire: what it was declared with and how many positions and lines it holds. 404 before one is declared.',
    method: 'GET',
    path: REPERTOIRE,
    access: 'signed-in',
    tag: 'prep',
    input: ColourInput,
    output: Repertoire,
    errors: [400, 401, 403, 404, 429, 503],
    handler: (ctx, input) => loadRepertoire(owner(ctx), input.colour).repertoire,
  }),
  defineSettingsRoute({
    operationId: 'prep_declare_repertoire',
    summary: 'Declare my repertoire of one colour',
    description:
      'Replaces the repertoire of that colour with a PGN with variations, lines typed in (SAN from move 1), or one of the owner’s study games (its PGN, variations included). A PGN that does not replay is a 400 and nothing changes. The PGN may hold up to 500,000 characters (the body up to 1,065,536 bytes).',
    method: 'PUT',
    path: REPERTOIRE,
    access: 'signed-in',
    tag: 'prep',
    input: RepertoireInput,
    output: Repertoire,
    // The schema's 500,000 characters of PGN, each up to two bytes of UTF-8 or an escape, with room for the envelope.
    bodyLimit: 2 * REPERTOIRE_PGN_MAX_CHARS + 64 * 1024,
    errors: [400, 401, 403, 404, 415, 429, 503],
    handler: (ctx, input) => declareRepertoire(owner(ctx), input),
  }),
  defineSettingsRoute({
    operationId: 'prep_remove_repertoire',
    summary: 'Remove my repertoire of one colour',
    description: 'Removes the declared repertoire of that colour; the games are untouched.',
    method: 'DELETE',
    path: REPERTOIRE,
    access: 'signed-in',
    tag: 'prep',
    input: ColourInput,
    output: Removed,
    errors: [400, 401, 403, 429, 503],
    handler: (ctx, input) => removeRepertoire(owner(ctx), input.colour),
  }),
  defineSettingsRoute({
    operationId: 'prep_repertoire_deviations',
    summary: 'Where my games leave my repertoire',
    description:
      'For each of the owner’s games with that colour: the first move that left the repertoire for good (by position, so transpositions into it count as in it), whose move, the result and the stored review’s evaluation after it; then the lines most often left, the owner’s own deviations worst first and the opponents’ moves it has no answer to.',
    method: 'GET',
    path: `${REPERTOIRE}/deviations`,
    access: 'signed-in',
    tag: 'prep',
    input: ColourInput,
    output: RepertoireDeviations,
    errors: [400, 401, 403, 404, 429, 503],
    handler: (ctx, input) => repertoireDeviations(owner(ctx), input.colour),
  }),
];

import { ScoutProvider } from '../schemas/prep.js';
import { STAT_TIME_CLASSES } from '../schemas/common.js';
import type { PersonalCtx } from '../src/context.js';
import { gameIdsWithPgn, gameLabels, opponentsByGames } from '../src/services/games/index.js';
import { library } from '../src/services/library/index.js';
import { listScouts } from '../src/services/prep/index.js';
import { EXPLORER_RATINGS } from '../src/services/peers/index.js';
import { tournamentsLookedAt } from '../src/services/tournaments/index.js';
import { tools } from './index.js';

/**
 * completion/complete (issue 43): for every prompt argument and resource template variable with a natural
 * list, the values a client may suggest as the person types. Values from the owner's data (their games,
 * opponents, scouts, tournaments) need the owner's token and are theirs alone; the others are fixed lists.
 */

/** MCP's cap on the values of one answer (specification, server/utilities/completion). */
export const MAX_VALUES = 100;

export interface Completer {
  /** From the owner's data: without their token there is nothing to offer. */
  personal: boolean;
  /** Values starting with `prefix` (case-insensitive), best first; `context` holds the arguments already given. */
  values(prefix: string, context: Readonly<Record<string, string>>, owner: PersonalCtx | null): string[];
}

const startingWith = (list: readonly string[], prefix: string) => list.filter((v) => v.toLowerCase().startsWith(prefix.toLowerCase()));
const fixed = (list: readonly string[]): Completer => ({ personal: false, values: (prefix) => startingWith(list, prefix) });
const owned = (values: (prefix: string, context: Readonly<Record<string, string>>, owner: PersonalCtx) => string[]): Completer => ({
  personal: true,
  values: (prefix, context, owner) => (owner ? values(prefix, context, owner) : []),
});

const colours = fixed(['white', 'black']);
/** Prompts take the sites' names (ScoutProvider reads both); URIs carry the ids the answers use. */
const siteNames = fixed(['lichess', 'chess.com']);
const siteIds = fixed(['siteB', 'siteA']);

/**
 * Usernames on the site named by the argument `providerArg` already given (both online sites when none): the
 * owner's opponents there by games played, then the players they scouted there.
 */
function usernames(providerArg: string): Completer {
  return owned((prefix, context, owner) => {
    const given = ScoutProvider.safeParse(context[providerArg] ?? '');
    const sites = given.success ? [given.data] : (['siteB', 'siteA'] as const);
    const scouted = listScouts(owner.store, owner.user.id)
      .filter((s) => (sites as readonly string[]).includes(s.provider))
      .map((s) => s.username);
    const seen = new Set<string>();
    return [...opponentsByGames(owner, sites, prefix, MAX_VALUES), ...startingWith(scouted, prefix)].filter((u) => {
      const key = u.toLowerCase();
      return !seen.has(key) && seen.add(key);
    });
  });
}

const games = owned((prefix, _context, owner) => gameLabels(owner, prefix, MAX_VALUES));
const gameIds = owned((prefix, _context, owner) => gameIdsWithPgn(owner, prefix, MAX_VALUES));
const tournaments = owned((prefix, _context, owner) => startingWith(tournamentsLookedAt(owner).list(owner.user.id), prefix));
const ownName = owned((prefix, _context, owner) => startingWith([owner.user.displayName], prefix));

/** By prompt name, then argument. Arguments left out have no natural list (minutes, count). */
export const promptCompletions: Readonly<Record<string, Readonly<Record<string, Completer>>>> = {
  review_game: { gameId: games },
  prepare_next_round: { tnr: tournaments, player: ownName, opponentProvider: siteNames, opponentUsername: usernames('opponentProvider') },
  prepare_for_opponent: { provider: siteNames, username: usernames('provider'), colour: colours },
  review_openings: { colour: colours, band: fixed(EXPLORER_RATINGS.map(String)), timeClass: fixed(STAT_TIME_CLASSES) },
};

/** By resource template (resources/templates/list's uriTemplate), then variable. `moves` has no list to offer. */
export const resourceCompletions: Readonly<Record<string, Readonly<Record<string, Completer>>>> = {
  'chess-footprint://games/{id}.pgn': { id: gameIds },
  'chess-footprint://library/{slug}': { slug: { personal: false, values: (prefix) => startingWith(library().entries.map((e) => e.meta.slug), prefix) } },
  'chess-footprint://openings/{colour}{?moves}': { colour: colours },
  'chess-footprint://openings/{colour}/peers{?moves}': { colour: colours },
  'chess-footprint://schema/{tool}': { tool: fixed(tools.map((t) => t.name)) },
  'chess-footprint://players/{provider}/{username}': { provider: siteIds, username: usernames('provider') },
  'chess-footprint://players/{provider}/{username}/openings/{colour}{?moves}': { provider: siteIds, username: usernames('provider'), colour: colours },
  'chess-footprint://repertoire/{colour}': { colour: colours },
  'chess-footprint://repertoire/{colour}/deviations': { colour: colours },
};

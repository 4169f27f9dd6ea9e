import type { ReadResourceResult, ResourceTemplate } from '@modelcontextprotocol/sdk/types.js';
import { tools } from './index.js';
import type { Colour } from '../src/chess/types.js';
import { DEFAULT_BUCKETS } from '../src/config.js';
import type { Ctx, PersonalCtx } from '../src/context.js';
import { ApiError, describeIssues } from '../src/errors.js';
import { inputJsonSchema, outputJsonSchema } from './jsonSchema.js';
import { gamePgn } from '../src/services/games/index.js';
import { getLibraryGame } from '../src/services/library/index.js';
import { openingTree } from '../src/services/stats/index.js';
import { reportMarkdown } from '../src/services/reports/index.js';
import { latestReport } from '../src/services/reports/index.js';
import { loadRepertoire, ownScout, readPlayer, repertoireDeviations, scoutTree } from '../src/services/prep/index.js';
import { PlayerInput } from '../schemas/prep.js';
import { PeersInput } from '../schemas/peers.js';
import { peersView } from '../src/services/peers/index.js';

export const URI_SCHEME = 'chess-footprint://';

type Contents = ReadResourceResult['contents'];

/** One resource template: its listing, how a URI matches it, and how it is read. */
export interface ResourceDefinition<P = Record<string, string>> {
  template: ResourceTemplate;
  /** personal: the owner's token is checked as for personal tools; public: none needed. */
  access: 'personal' | 'public';
  /** The URI's parameters, or null when the URI is not this template's. */
  match(uri: string): P | null;
  // Method syntax (bivariant parameters) lets one list hold templates with different parameters.
  /** The contents; a derived read that runs in slices (the preparation views) answers a promise. */
  read(ctx: Ctx, params: P, uri: string): Contents | Promise<Contents>;
}

function defineResource<P>(def: ResourceDefinition<P>): ResourceDefinition<P> {
  return def;
}

/** Decodes one URI segment; a malformed escape is a bad URI, not a server fault. */
function segment(raw: string): string {
  try {
    return decodeURIComponent(raw);
  } catch {
    throw new ApiError(400, 'malformed percent-encoding in the resource URI');
  }
}

/** The one path segment of `chess-footprint://{dir}/{segment}{suffix}`, decoded; null for any other URI. */
function segmentOf(uri: string, dir: string, suffix = ''): string | null {
  const prefix = `${URI_SCHEME}${dir}/`;
  if (!uri.startsWith(prefix) || !uri.endsWith(suffix)) return null;
  const raw = uri.slice(prefix.length, uri.length - suffix.length);
  return raw !== '' && !/[/?#]/.test(raw) ? segment(raw) : null;
}

export const gamePgnResource = defineResource({
  template: {
    uriTemplate: `${URI_SCHEME}games/{id}.pgn`,
    name: 'game-pgn',
    title: 'Stored PGN of one of my games',
    description: "The PGN stored for one of the owner's games (id from list_games), exactly as get_game returns it in pgn. Games without a stored PGN (attach one with attach_pgn) and ids that are not the owner's are not found.",
    mimeType: 'application/x-chess-pgn',
  },
  access: 'personal',
  match: (uri) => {
    const id = segmentOf(uri, 'games', '.pgn');
    return id === null ? null : { id };
  },
  read: (ctx, { id }, uri) => [{ uri, mimeType: 'application/x-chess-pgn', text: gamePgn(ctx as PersonalCtx, id) }],
});

export const latestReportResource = defineResource({
  template: {
    uriTemplate: `${URI_SCHEME}reports/latest`,
    name: 'weekly-report',
    title: 'My latest weekly report',
    description: 'The most recent frozen weekly report (the same figures as get_weekly_report) as Markdown. Not found before the first report is generated.',
    mimeType: 'text/markdown',
  },
  access: 'personal',
  match: (uri) => (uri === `${URI_SCHEME}reports/latest` ? {} : null),
  read: (ctx, _params, uri) => [{ uri, mimeType: 'text/markdown', text: reportMarkdown(latestReport(ctx as PersonalCtx)) }],
});

export const libraryResource = defineResource({
  template: {
    uriTemplate: `${URI_SCHEME}library/{slug}`,
    name: 'library-game',
    title: 'A library game: essay and PGN',
    description: 'One game of the curated library (slug from list_library_games): the essay as Markdown, then the PGN. No token needed.',
    mimeType: 'text/markdown',
  },
  access: 'public',
  match: (uri) => {
    const slug = segmentOf(uri, 'library');
    return slug === null ? null : { slug };
  },
  read: (_ctx, { slug }, uri) => {
    const g = getLibraryGame(slug);
    return [
      { uri, mimeType: 'text/markdown', text: g.essay },
      { uri, mimeType: 'application/x-chess-pgn', text: g.pgn },
    ];
  },
});

export const openingTreeResource = defineResource({
  template: {
    uriTemplate: `${URI_SCHEME}openings/{colour}{?moves}`,
    name: 'opening-tree',
    title: 'Opening tree of my own games',
    description:
      "The opening tree of the owner's own games as white or black: after moves (space-separated SAN from move 1, URL-encoded, e.g. openings/white?moves=e4+c5; omit for the start), every next move played with games, wins/draws/losses, score, average accuracy and, from reviewed games, the average evaluation after it (owner's view, pawns). Each move carries lineMoves for list_games. JSON.",
    mimeType: 'application/json',
  },
  access: 'personal',
  match: (uri) => {
    const m = /^chess-footprint:\/\/openings\/([^/?#]+)(?:\?([^#]*))?$/.exec(uri);
    if (!m) return null;
    const colour = segment(m[1]);
    if (colour !== 'white' && colour !== 'black') throw new ApiError(400, 'colour must be white or black');
    const query = new URLSearchParams(m[2] ?? '');
    const unknown = [...query.keys()].filter((k) => k !== 'moves');
    if (unknown.length) throw new ApiError(400, `unknown query parameter(s): ${unknown.join(', ')}; only moves`);
    return { colour: colour as Colour, moves: query.get('moves') ?? '' };
  },
  read: (ctx, { colour, moves }, uri) => [
    { uri, mimeType: 'application/json', text: JSON.stringify(openingTree(ctx as PersonalCtx, colour, moves)) },
  ],
});

export const peersResource = defineResource({
  template: {
    uriTemplate: `${URI_SCHEME}openings/{colour}/peers{?moves}`,
    name: 'opening-peers',
    title: 'My openings beside players at my level',
    description:
      "The owner's opening moves beside lichess's opening explorer at their rating band and speed: for the owner's most-reached positions of that colour (first 16 plies), each of their moves with the peers' share and score, the peers' most played and best-scoring move, and ranked findings (a move scoring clearly worse than the peers' best alternative, or rare at their level). " +
      'moves= (SAN from move 1, URL-encoded) picks the position shown; also band= names a rating group (default: from their lichess, else chess.com rating); timeClass=; masters=true adds the masters\' move. ' +
      "The first read starts fetching from lichess (needs the owner's lichess token; status says progress): read again until status.state is ok. Cached per month. JSON.",
    mimeType: 'application/json',
  },
  access: 'personal',
  match: (uri) => {
    const m = /^chess-footprint:\/\/openings\/([^/?#]+)\/peers(?:\?([^#]*))?$/.exec(uri);
    if (!m) return null;
    const query = Object.fromEntries(new URLSearchParams(m[2] ?? ''));
    const parsed = PeersInput.safeParse({ ...query, colour: colourOf(m[1]) });
    if (!parsed.success) throw new ApiError(400, describeIssues(parsed.error));
    return parsed.data;
  },
  read: (ctx, { colour, moves, band, timeClass, masters }, uri) => json(uri, peersView(ctx as PersonalCtx, colour, { moves, band, timeClass, masters: masters === 'true' })),
});

/** `{provider}/{username}` of a players URI, validated as the REST routes validate them (usernames only, never a URL). */
function playerOf(rawProvider: string, rawUsername: string) {
  const parsed = PlayerInput.safeParse({ provider: segment(rawProvider), username: segment(rawUsername) });
  if (!parsed.success) throw new ApiError(400, describeIssues(parsed.error));
  return parsed.data;
}

function colourOf(raw: string): Colour {
  const colour = segment(raw);
  if (colour !== 'white' && colour !== 'black') throw new ApiError(400, 'colour must be white or black');
  return colour;
}

const json = (uri: string, value: unknown): Contents => [{ uri, mimeType: 'application/json', text: JSON.stringify(value) }];

export const playerResource = defineResource({
  template: {
    uriTemplate: `${URI_SCHEME}players/{provider}/{username}`,
    name: 'scouted-player',
    title: 'A public player I prepare against',
    description:
      "A lichess (siteB) or chess.com (siteA) player's recent public games, scouted for the owner: results by colour and time class, recent form, rating trend, the lines where they score worst, and meetingPoints (positions both their games and the owner's own games reach, how each scores there). " +
      `Reading a player the owner never scouted starts the scout (no tool is needed; it counts against the owner's scout limit, ${DEFAULT_BUCKETS.scout.limit} per ${DEFAULT_BUCKETS.scout.windowSeconds / 3600} h by default, and reading again while it runs starts nothing new): ` +
      'the newest 500 games of the last 12 months, scout.state queued or fetching with progress. Read again every few seconds until it is ok; then their opening tree is at …/openings/{colour}. A read after 12 hours fetches only what is new. JSON.',
    mimeType: 'application/json',
  },
  access: 'personal',
  match: (uri) => {
    const m = /^chess-footprint:\/\/players\/([^/?#]+)\/([^/?#]+)$/.exec(uri);
    return m ? playerOf(m[1], m[2]) : null;
  },
  read: async (ctx, { provider, username }, uri) => json(uri, await readPlayer(ctx as PersonalCtx, provider, username)),
});

export const playerTreeResource = defineResource({
  template: {
    uriTemplate: `${URI_SCHEME}players/{provider}/{username}/openings/{colour}{?moves}`,
    name: 'scouted-player-openings',
    title: "A scouted player's opening tree",
    description:
      "The scouted player's games with colour (theirs) after moves (space-separated SAN from move 1, URL-encoded, e.g. ?moves=e4+c5): each next move with games, wins/draws/losses, their score and share (percent of their games at that point). Read chess-footprint://players/{provider}/{username} first to scout them. JSON.",
    mimeType: 'application/json',
  },
  access: 'personal',
  match: (uri) => {
    const m = /^chess-footprint:\/\/players\/([^/?#]+)\/([^/?#]+)\/openings\/([^/?#]+)(?:\?([^#]*))?$/.exec(uri);
    if (!m) return null;
    const query = new URLSearchParams(m[4] ?? '');
    const unknown = [...query.keys()].filter((k) => k !== 'moves');
    if (unknown.length) throw new ApiError(400, `unknown query parameter(s): ${unknown.join(', ')}; only moves`);
    return { ...playerOf(m[1], m[2]), colour: colourOf(m[3]), moves: query.get('moves') ?? '' };
  },
  read: (ctx, { provider, username, colour, moves }, uri) => {
    const c = ctx as PersonalCtx;
    return json(uri, scoutTree(c, ownScout(c, provider, username), colour, moves));
  },
});

export const repertoireResource = defineResource({
  template: {
    uriTemplate: `${URI_SCHEME}repertoire/{colour}`,
    name: 'repertoire',
    title: 'My declared repertoire',
    description:
      "The owner's declared repertoire of one colour (white or black): the PGN it was declared with (variations kept) and how many positions and lines it holds. The player declares it on the dashboard's Prep page (no tool does): before then the read is not found, and its message gives the page's address to pass on. JSON.",
    mimeType: 'application/json',
  },
  access: 'personal',
  match: (uri) => {
    const m = /^chess-footprint:\/\/repertoire\/([^/?#]+)$/.exec(uri);
    return m ? { colour: colourOf(m[1]) } : null;
  },
  read: (ctx, { colour }, uri) => json(uri, loadRepertoire(ctx as PersonalCtx, colour).repertoire),
});

export const deviationsResource = defineResource({
  template: {
    uriTemplate: `${URI_SCHEME}repertoire/{colour}/deviations`,
    name: 'repertoire-deviations',
    title: 'Where my games leave my repertoire',
    description:
      "For each of the owner's games with that colour, the first move that left the declared repertoire for good (matched by position: transpositions into it count as in it), whose move it was, the result and, for reviewed games, the owner's evaluation after it (pawns); " +
      "then linesMostOftenLeft, ownDeviations (worst score first) and opponentsUnanswered (the opponents' moves it has no answer to). Game ids work with get_game. Not found until the player declares that repertoire on the dashboard's Prep page. JSON.",
    mimeType: 'application/json',
  },
  access: 'personal',
  match: (uri) => {
    const m = /^chess-footprint:\/\/repertoire\/([^/?#]+)\/deviations$/.exec(uri);
    return m ? { colour: colourOf(m[1]) } : null;
  },
  read: async (ctx, { colour }, uri) => json(uri, await repertoireDeviations(ctx as PersonalCtx, colour)),
});

/**
 * The full field documentation of one tool: tools/list carries a terse description per field
 * (tools/leanSchema.ts, issue 15), and this is where the long text (frames, units, edge cases)
 * stays for MCP clients that never see /openapi.json (stdio). The same JSON Schemas OpenAPI embeds.
 */
export const toolSchemaResource = defineResource({
  template: {
    uriTemplate: `${URI_SCHEME}schema/{tool}`,
    name: 'tool-schema',
    title: 'Full field documentation of a tool',
    description: "One tool's input and output JSON Schema with every field's full description (tools/list shortens them). No token needed.",
    mimeType: 'application/json',
  },
  access: 'public',
  match: (uri) => {
    const tool = segmentOf(uri, 'schema');
    return tool === null ? null : { tool };
  },
  read: (_ctx, { tool: name }, uri) => {
    const tool = tools.find((t) => t.name === name);
    if (!tool) throw new ApiError(404, `no tool named ${name}; call tools/list`);
    const text = JSON.stringify({ name: tool.name, description: tool.description, inputSchema: inputJsonSchema(tool), outputSchema: outputJsonSchema(tool) });
    return [{ uri, mimeType: 'application/json', text }];
  },
});

/** In resources/templates/list order. */
export const resourceDefinitions: readonly ResourceDefinition<unknown>[] = [
  gamePgnResource,
  latestReportResource,
  libraryResource,
  openingTreeResource,
  peersResource,
  toolSchemaResource,
  playerResource,
  playerTreeResource,
  repertoireResource,
  deviationsResource,
];

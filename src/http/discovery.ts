import { createHash } from 'node:crypto';
import type { AnyTool } from '../../tools/defineTool.js';
import { LATEST_PROTOCOL_VERSION } from '@modelcontextprotocol/sdk/types.js';
import { prompts } from '../../tools/prompts.js';
import { resourceDefinitions } from '../../tools/resources.js';
import { SERVER_INSTRUCTIONS } from '../../tools/instructions.js';
import { mcpToolListing, promptListing, SERVER_CAPABILITIES } from '../../tools/listing.js';
import { oneLine } from '../../tools/sentences.js';
import { packageJson } from '../paths.js';
import { API_DESCRIPTION_VERSION } from './openapi.js';

/** RFC 9727 api-catalog: a linkset whose anchor is the API root. */
export function apiCatalog(baseUrl: string) {
  return {
    linkset: [
      {
        anchor: `${baseUrl}/api/v1`,
        'service-desc': [{ href: `${baseUrl}/openapi.json`, type: 'application/vnd.oai.openapi+json;version=3.1' }],
        'service-doc': [{ href: `${baseUrl}/llms.txt`, type: 'text/markdown' }],
        'service-meta': [{ href: `${baseUrl}/.well-known/mcp.json`, type: 'application/json' }],
        describedby: [{ href: `${baseUrl}/auth.md`, type: 'text/markdown' }],
      },
    ],
  };
}

export function apiCatalogLinkHeader(baseUrl: string): string {
  return `<${baseUrl}/.well-known/api-catalog>; rel="api-catalog"`;
}

/**
 * The earlier MCP server card (SEP-1649 draft shape) at /.well-known/mcp.json, which the spec
 * requires: identity, endpoint, transport, auth, and the tools, prompts and resource templates.
 * The current proposal's card (SEP-2127) is src/http/mcpDiscovery.ts.
 */
export function serverCard(tools: readonly AnyTool[], baseUrl: string) {
  return {
    $schema: 'https://static.modelcontextprotocol.io/schemas/mcp-server-card/v1.json',
    version: '1.0',
    protocolVersion: LATEST_PROTOCOL_VERSION,
    serverInfo: { name: 'chess-footprint', title: 'chess-footprint', version: packageJson.version },
    description: packageJson.description,
    instructions: SERVER_INSTRUCTIONS,
    transport: { type: 'streamable-http', endpoint: `${baseUrl}/api/mcp`, stateless: true },
    capabilities: SERVER_CAPABILITIES,
    authentication: {
      required: false,
      schemes: ['bearer'],
      description: 'Personal tools need Authorization: Bearer cfp_… (see /auth.md); library, tournament and calculator tools need none.',
      documentation: `${baseUrl}/auth.md`,
    },
    tools: tools.map((t) => {
      const listing = mcpToolListing(t);
      // The listing's own _meta (the chat board's, tools/app.ts) kept beside where the tool is served.
      return { ...listing, _meta: { ...listing._meta, access: t.access, rest: `${t.rest.method} ${t.rest.path}` } };
    }),
    prompts: prompts.map(promptListing),
    resourceTemplates: resourceDefinitions.map((d) => d.template),
  };
}

/** A skill document for agents: how to coach with these tools, generated from the registry. */
export function coachSkillMd(tools: readonly AnyTool[], baseUrl: string): string {
  const personal = tools.filter((t) => t.access === 'personal');
  const pub = tools.filter((t) => t.access === 'public');
  return [
    '---',
    'name: chess-footprint-coach',
    "description: Coach a chess player from their own data (chess.com, lichess and ECF over-the-board games, Stockfish reviews, study collection, coaching log) through the chess-footprint MCP server.",
    '---',
    '',
    '# Coaching with chess-footprint',
    '',
    `Connect to the MCP server at ${baseUrl}/api/mcp (streamable HTTP) with the owner's bearer token, or over stdio with the command \`claude-config\` prints on that machine (CFP_TOKEN set; never \`npx chess-footprint\`, a name this project does not publish).`,
    '',
    '## A session',
    '1. `get_profile`: who the player is and how fresh the data is (`lastSyncedAt`).',
    '2. `get_coaching_state`: the agreed focuses, open assignments and the log; continue from there.',
    '3. Evidence: `get_chess_stats`, `get_rating_progress`, `get_problem_lines` (then `list_games` with `lineMoves`), `get_weakness_profile`.',
    '4. One game in depth: `get_game`, `request_game_review` (attach_pgn first if it has no moves), `get_critical_moments`, `get_game_analysis`.',
    '5. Record what was agreed: `set_training_focus`, `add_coaching_entry` (kind `session` at the end), `save_position` for positions to quiz later.',
    '',
    'Never invent moves or evaluations: when a tool says a game has no moves or no review, say so and offer the next step it names.',
    '',
    '## Tools',
    ...personal.map((t) => `- \`${t.name}\`: ${oneLine(t.description)}`),
    '',
    '## Public tools (no token)',
    ...pub.map((t) => `- \`${t.name}\`: ${oneLine(t.description)}`),
    '',
  ].join('\n');
}

export function agentSkillsIndex(tools: readonly AnyTool[], baseUrl: string) {
  const skill = coachSkillMd(tools, baseUrl);
  return {
    $schema: 'https://schemas.agentskills.io/discovery/0.2.0/schema.json',
    skills: [
      {
        name: 'chess-footprint-coach',
        type: 'skill-md',
        description: 'Coach a chess player from their own synced games, engine reviews and coaching log via the chess-footprint MCP tools.',
        url: `${baseUrl}/.well-known/agent-skills/chess-footprint-coach/SKILL.md`,
        digest: `sha256:${createHash('sha256').update(skill).digest('hex')}`,
      },
    ],
  };
}

/**
 * llms.txt: what the service is, how to connect, every tool with its one-line purpose. The stdio line
 * is the command this installation runs (`stdioCommandLine`, what `claude-config` prints), never
 * `npx chess-footprint`: that npm name is not published by this project, and whoever claimed it would
 * be run by every agent following this file.
 */
export function llmsTxt(tools: readonly AnyTool[], baseUrl: string, stdioCommand: string): string {
  const line = (t: AnyTool) => `- [${t.name}](${baseUrl}/openapi.json#${t.name}): ${oneLine(t.httpDescription)} (\`${t.rest.method} ${t.rest.path}\`)`;
  return [
    '# chess-footprint',
    '',
    `> ${packageJson.description}`,
    '',
    "A self-hosted service a player runs on their own machine. It syncs their games from chess.com (`siteA`), lichess (`siteB`) and the English Chess Federation rating database (`fed`, over-the-board), reviews them with Stockfish, and serves 29 MCP tools with the same data as a REST API.",
    '',
    '## Connect',
    '',
    `- MCP (streamable HTTP, stateless): POST ${baseUrl}/api/mcp with \`Authorization: Bearer cfp_…\` for personal tools; public tools need no header.`,
    `- MCP over stdio (Claude Desktop), on the machine that runs this server: \`${stdioCommand}\` (\`claude-config\` prints it as a Claude Desktop entry, or writes it with \`--write\`). Do not use \`npx chess-footprint\`: this project publishes no npm package, so that name would fetch someone else's code.`,
    `- REST: ${baseUrl}/api/v1/…, described by ${baseUrl}/openapi.json (OpenAPI ${'3.1.0'}, description version ${API_DESCRIPTION_VERSION}).`,
    `- Tokens: ${baseUrl}/auth.md. Errors are JSON \`{error}\` with the HTTP status.`,
    '',
    '## Personal tools (bearer token)',
    '',
    ...tools.filter((t) => t.access === 'personal').map(line),
    '',
    '## Public tools (no token)',
    '',
    ...tools.filter((t) => t.access === 'public').map(line),
    '',
    '## Optional',
    '',
    `- [MCP server card](${baseUrl}/api/mcp/server-card) (SEP-2127; the earlier draft shape at ${baseUrl}/.well-known/mcp.json)`,
    `- [MCP catalog](${baseUrl}/.well-known/mcp/catalog.json)`,
    `- [API catalog](${baseUrl}/.well-known/api-catalog)`,
    `- [Agent skills](${baseUrl}/.well-known/agent-skills/index.json)`,
    '',
  ].join('\n');
}

/** auth.md; `cli` is how this installation runs its CLI (`cliCommand`: absolute in a clone). */
export function authMd(baseUrl: string, cli: string): string {
  return [
    '# Authentication',
    '',
    'Personal endpoints and personal MCP tools need a personal access token: the literal prefix `cfp_` followed by 43 URL-safe characters (32 random bytes, base64url).',
    '',
    '## Create',
    '',
    'On the machine that runs the server:',
    '',
    '```sh',
    `${cli} token create --name "Claude Desktop"`,
    '```',
    '',
    'The token is printed once, alone on stdout. Only its SHA-256 fingerprint is stored: it cannot be shown again; create a new one if it is lost. `init` and `demo` also print a token for the account they create.',
    '',
    '## Send',
    '',
    '```http',
    'GET /api/v1/me HTTP/1.1',
    `Host: ${new URL(baseUrl).host}`,
    'Authorization: Bearer cfp_…',
    '```',
    '',
    `MCP uses the same header against ${baseUrl}/api/mcp. Over stdio, set \`CFP_TOKEN\`. Library, tournament and calculator tools need no token.`,
    '',
    '## Revoke',
    '',
    '```sh',
    `${cli} token list`,
    `${cli} token revoke <id>`,
    '```',
    '',
    'Revocation takes effect on the next request. A missing, invalid or revoked token gets `401 {"error": …}` with one fixed message; a token only ever reaches its owner\'s data, and another user\'s id answers exactly like an unknown id (404).',
    '',
  ].join('\n');
}

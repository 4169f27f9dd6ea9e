import { LATEST_PROTOCOL_VERSION, SUPPORTED_PROTOCOL_VERSIONS } from '@modelcontextprotocol/sdk/types.js';
import { packageJson } from '../paths.js';

/**
 * MCP discovery documents in the shapes of the current proposals, each a pure function of the
 * package metadata and the base URL (so they can be built once and served as bytes).
 *
 * - Server Card, SEP-2127 (supersedes SEP-1649): https://github.com/modelcontextprotocol/modelcontextprotocol/pull/2127,
 *   schema in https://github.com/modelcontextprotocol/experimental-ext-server-card (schema.ts): identity, remotes and
 *   protocol versions only; primitives are left to tools/list, prompts/list and resources/templates/list. Served at the
 *   reserved `<streamable-http-url>/server-card` with media type application/mcp-server-card+json, and listed by an MCP
 *   Catalog at /.well-known/mcp/catalog.json (docs/discovery.md of the same repository).
 * - MCP Registry server.json: https://modelcontextprotocol.io/registry/ (schema 2025-12-11): an npm package run over
 *   stdio, plus the streamable-HTTP remote when the server is reachable.
 */

export const SERVER_CARD_MEDIA_TYPE = 'application/mcp-server-card+json';
export const SERVER_CARD_SCHEMA = 'https://static.modelcontextprotocol.io/schemas/v2/server-card.schema.json';
export const REGISTRY_SERVER_SCHEMA = 'https://static.modelcontextprotocol.io/schemas/2025-12-11/server.schema.json';

/** Both documents cap description at 100 characters. */
export const SHORT_DESCRIPTION = 'Your chess.com, lichess and ECF games, reviewed with Stockfish, served to your AI agent.';

const TOKEN_HEADER = {
  name: 'Authorization',
  description: 'Bearer cfp_… personal access token (chess-footprint token create); only personal tools and resources need it',
  isRequired: false,
  isSecret: true,
  value: 'Bearer {token}',
  variables: { token: { description: 'A token printed by `chess-footprint token create`', isRequired: true, isSecret: true } },
};

export function mcpEndpoint(baseUrl: string): string {
  return `${baseUrl}/api/mcp`;
}

export function serverCardV2(baseUrl: string) {
  return {
    $schema: SERVER_CARD_SCHEMA,
    name: packageJson.mcpName,
    version: packageJson.version,
    description: SHORT_DESCRIPTION,
    title: 'chess-footprint',
    remotes: [
      {
        type: 'streamable-http' as const,
        url: mcpEndpoint(baseUrl),
        headers: [TOKEN_HEADER],
        supportedProtocolVersions: [...SUPPORTED_PROTOCOL_VERSIONS],
      },
    ],
    _meta: {
      'io.github.chess-footprint/discovery': {
        latestProtocolVersion: LATEST_PROTOCOL_VERSION,
        openapi: `${baseUrl}/openapi.json`,
        llms: `${baseUrl}/llms.txt`,
        auth: `${baseUrl}/auth.md`,
        legacyCard: `${baseUrl}/.well-known/mcp.json`,
      },
    },
  };
}

/** The MCP Catalog: one entry, this server's card. */
export function mcpCatalog(baseUrl: string) {
  const host = new URL(baseUrl).hostname;
  return {
    specVersion: 'draft',
    entries: [
      {
        identifier: `urn:air:${host}:${packageJson.mcpName.split('/')[1]}`,
        displayName: 'chess-footprint',
        type: SERVER_CARD_MEDIA_TYPE,
        url: `${mcpEndpoint(baseUrl)}/server-card`,
      },
    ],
  };
}

/** Said inside server.json wherever it is read (package root, `/server.json`): the npm name it points at is not published yet. */
export const UNPUBLISHED_NOTE =
  'Kept for when the npm package is published: the package named here is not on the npm registry yet and is not run by this project. Start this installation over stdio with the command `claude-config` prints (absolute node, script and data folder), never with npx.';

/**
 * server.json for the MCP Registry. The npm package runs `chess-footprint mcp` over stdio; the
 * remote is left out because each player runs the server on their own machine (a registry remote
 * must be publicly reachable). Until the package is published, `_meta` says so (the registry schema's
 * publisher-provided block), since an agent reading it would otherwise run whoever holds the name.
 */
export function registryServerJson() {
  return {
    $schema: REGISTRY_SERVER_SCHEMA,
    _meta: { 'io.modelcontextprotocol.registry/publisher-provided': { published: false, note: UNPUBLISHED_NOTE } },
    name: packageJson.mcpName,
    title: 'chess-footprint',
    description: SHORT_DESCRIPTION,
    version: packageJson.version,
    packages: [
      {
        registryType: 'npm',
        identifier: packageJson.name,
        version: packageJson.version,
        transport: { type: 'stdio' },
        packageArguments: [{ type: 'positional', value: 'mcp' }],
        environmentVariables: [
          {
            name: 'CFP_TOKEN',
            description: 'Personal access token from `chess-footprint token create`; without it only the public tools work',
            isRequired: false,
            isSecret: true,
            format: 'string',
          },
          {
            name: 'CFP_DATA_DIR',
            description: 'Data folder holding the store (default ~/.chess-footprint)',
            isRequired: false,
            format: 'filepath',
          },
        ],
      },
    ],
  };
}

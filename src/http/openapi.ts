import type { AnyTool } from '../../tools/defineTool.js';
import type { DocumentedStatus } from '../../tools/outcomes.js';
import { pathParams } from '../../tools/defineTool.js';
import { ErrorBody } from '../../schemas/common.js';
import { errorJsonSchema, inputJsonSchema, outputJsonSchema, type JsonSchema } from '../../tools/jsonSchema.js';
import { packageJson } from '../paths.js';
import { SESSION_COOKIE } from '../auth/sessions.js';
import { settingsOpenApi } from './settings/openapi.js';
import type { SettingsRoute } from './settings/route.js';

/** The description version the spec fixes (section 9), independent of the package version. */
export const API_DESCRIPTION_VERSION = '1.4.0';

const STATUS_TEXT: Record<number, string> = {
  200: 'OK',
  202: 'Accepted: queued; call again (or pass wait) to collect',
  400: 'Bad request: the error names the field or the problem',
  401: 'Missing, invalid or revoked token',
  404: 'Not found (identical for unknown ids and ids of another user)',
  409: 'Conflict: the state changed or a limit of the resource applies; read it again',
  413: 'The request body exceeds the bounded JSON envelope',
  415: 'Content-Type must be application/json',
  429: 'Rate limit reached; see Retry-After',
  502: 'The upstream source could not be read',
  503: 'Unavailable: the limiter or an upstream courtesy cap; see Retry-After',
  504: 'The upstream source did not answer in time',
};

export function componentName(tool: AnyTool): string {
  return tool.name
    .split('_')
    .map((s) => s[0].toUpperCase() + s.slice(1))
    .join('');
}

function operation(tool: AnyTool) {
  const input = inputJsonSchema(tool);
  const props = input.properties ?? {};
  const required = new Set(input.required ?? []);
  const inPath = new Set(pathParams(tool.rest.path));
  const isBody = tool.rest.method === 'POST';
  const parameters = Object.entries(props)
    .filter(([name]) => inPath.has(name) || !isBody)
    .map(([name, schema]) => ({
      name,
      in: inPath.has(name) ? 'path' : 'query',
      required: inPath.has(name) || required.has(name),
      description: (schema as JsonSchema).description,
      schema: { ...(schema as JsonSchema), description: undefined },
    }))
    .map((p) => JSON.parse(JSON.stringify(p)));
  const bodyProps = Object.fromEntries(Object.entries(props).filter(([name]) => !inPath.has(name)));
  const bodyRequired = [...required].filter((n) => !inPath.has(n));
  const ref = { $ref: `#/components/schemas/${componentName(tool)}` };
  const responses: Record<string, unknown> = {
    200: { description: STATUS_TEXT[200], content: { 'application/json': { schema: ref } } },
  };
  for (const status of tool.statuses as readonly DocumentedStatus[]) {
    responses[status] =
      status === 202
        ? { description: STATUS_TEXT[202], content: { 'application/json': { schema: ref } } }
        : {
            description: STATUS_TEXT[status] ?? 'Error',
            content: { 'application/json': { schema: { $ref: '#/components/schemas/Error' } } },
            ...(status === 429 || status === 503 ? { headers: { 'Retry-After': { $ref: '#/components/headers/RetryAfter' } } } : {}),
          };
  }
  return {
    operationId: tool.name,
    summary: tool.title,
    description: tool.httpDescription,
    tags: [tool.access === 'personal' ? 'personal' : 'public'],
    ...(parameters.length ? { parameters } : {}),
    ...(isBody && Object.keys(bodyProps).length
      ? {
          requestBody: {
            required: bodyRequired.length > 0,
            content: {
              'application/json': {
                schema: {
                  type: 'object',
                  properties: bodyProps,
                  ...(bodyRequired.length ? { required: bodyRequired } : {}),
                  additionalProperties: false,
                },
              },
            },
          },
        }
      : {}),
    responses,
    security: tool.access === 'personal' ? [{ bearerAuth: [] }] : [],
    'x-mcp-tool': tool.name,
    'x-rate-limit-family': tool.family,
  };
}

/**
 * Moves every `$defs` (shapes declared once with `.meta({ id })`) found anywhere in the document into
 * components.schemas and points the references there: in OpenAPI a `#/$defs/…` reference resolves
 * against the document root (JSON Pointer, RFC 6901), where no `$defs` is, so a validator or client
 * generator stops at the first one. Hoisting also lets every operation share one definition of each
 * shape. Applied to the whole document, so the tools' inputs and outputs and the settings and prep
 * routes are all covered, whichever of them a `$defs` turns up in.
 */
function hoistDefs<T>(node: T, components: Record<string, unknown>): T {
  const rewrite = (n: unknown): unknown => {
    if (Array.isArray(n)) return n.map(rewrite);
    if (!n || typeof n !== 'object') return n;
    const out: Record<string, unknown> = {};
    for (const [k, v] of Object.entries(n)) {
      if (k === '$defs' && v && typeof v === 'object') {
        for (const [name, def] of Object.entries(v)) components[name] ??= rewrite(def);
      } else if (k === '$ref' && typeof v === 'string' && v.startsWith('#/$defs/')) {
        out[k] = `#/components/schemas/${v.slice('#/$defs/'.length)}`;
      } else out[k] = rewrite(v);
    }
    return out;
  };
  return rewrite(node) as T;
}

/**
 * OpenAPI 3.1.0 of the REST facade, a pure function of the registry; the dashboard's settings
 * routes, when given, follow the tools under their own tag (they are not MCP tools).
 */
export function buildOpenApi(tools: readonly AnyTool[], serverUrl = '/', settings: readonly SettingsRoute[] = []) {
  const paths: Record<string, Record<string, unknown>> = {};
  for (const tool of tools) {
    paths[tool.rest.path] ??= {};
    paths[tool.rest.path][tool.rest.method.toLowerCase()] = operation(tool);
  }
  const schemas: Record<string, unknown> = { Error: errorJsonSchema(ErrorBody) };
  // Each output's shared shapes follow it (a stable order for the golden file); the final pass below takes the rest.
  for (const tool of tools) schemas[componentName(tool)] = hoistDefs(outputJsonSchema(tool), schemas);
  const extra = settingsOpenApi(settings);
  Object.assign(paths, extra.paths);
  Object.assign(schemas, extra.schemas);
  // Hoisted last, over everything: the hoisted definitions join `schemas` as they are found.
  const hoisted: Record<string, unknown> = {};
  const hoistedPaths = hoistDefs(paths, hoisted);
  const hoistedSchemas = hoistDefs(schemas, hoisted);
  for (const [name, def] of Object.entries(hoisted)) hoistedSchemas[name] ??= def;
  return {
    openapi: '3.1.0',
    info: {
      title: 'chess-footprint',
      version: API_DESCRIPTION_VERSION,
      summary: 'Personal chess data: games, reviews, aggregates, study and coaching state',
      description: `${packageJson.description} The same 29 operations are MCP tools at /api/mcp (operationId = tool name). Personal operations need a bearer token (see /auth.md); public ones need none.`,
      license: { name: 'MIT', identifier: 'MIT' },
    },
    servers: [{ url: serverUrl }],
    tags: [
      { name: 'personal', description: "The token owner's data" },
      { name: 'public', description: 'Token-less: library, tournaments, ECF calculator' },
      ...(settings.length ? [{ name: 'settings', description: 'The dashboard’s account settings (sessions, tokens, connections, sync): not MCP tools' }] : []),
      ...(settings.some((r) => r.tag === 'prep')
        ? [{ name: 'prep', description: 'Preparation: scouting a public player’s games, and the owner’s repertoire against their own games (MCP resources chess-footprint://players/… and …://repertoire/…): not MCP tools' }]
        : []),
    ],
    paths: hoistedPaths,
    components: {
      schemas: hoistedSchemas,
      securitySchemes: {
        bearerAuth: { type: 'http', scheme: 'bearer', description: 'A personal access token: cfp_ followed by 43 URL-safe characters' },
        ...(settings.length
          ? { sessionCookie: { type: 'apiKey', in: 'cookie', name: SESSION_COOKIE, description: 'The dashboard session (HttpOnly, SameSite=Strict); state-changing requests must come from the same origin' } }
          : {}),
      },
      headers: {
        RetryAfter: { description: 'Seconds to wait before retrying', schema: { type: 'integer', minimum: 1 } },
      },
    },
  };
}

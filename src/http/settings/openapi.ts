import { pathParams } from '../../../tools/defineTool.js';
import { zodJsonSchema, type JsonSchema } from '../../../tools/jsonSchema.js';
import type { SettingsRoute } from './route.js';

const ERROR_TEXT: Record<number, string> = {
  400: 'Bad request: the error names the field or the problem',
  401: 'Not signed in: no valid session cookie or bearer token',
  403: 'The session cookie came from another origin (Origin check); use a bearer token',
  404: 'Not found (identical for unknown ids and ids of another account)',
  409: 'A sync is already running for this account',
  429: 'Too many requests: the Retry-After header says when to try again',
  503: 'The rate limiter is unavailable; nothing was done',
  413: 'The request body exceeds the route\'s limit (16 KB unless the description says more); the error names it',
  415: 'Content-Type must be application/json',
};

const pascal = (id: string) =>
  id
    .split('_')
    .map((s) => s[0].toUpperCase() + s.slice(1))
    .join('');

/**
 * OpenAPI paths and component schemas of the settings API, under the tag `settings` and without
 * `x-mcp-tool`: these operations are not MCP tools.
 */
export function settingsOpenApi(routes: readonly SettingsRoute[]) {
  const paths: Record<string, Record<string, unknown>> = {};
  const schemas: Record<string, unknown> = {};
  for (const route of routes) {
    const input = zodJsonSchema(route.input, 'input');
    const inPath = new Set(pathParams(route.path));
    const props = input.properties ?? {};
    const takesBody = route.method === 'POST' || route.method === 'PUT';
    const parameters = [...inPath].map((name) => ({
      name,
      in: 'path',
      required: true,
      description: (props[name] as JsonSchema | undefined)?.description,
      schema: { ...(props[name] as JsonSchema), description: undefined },
    }));
    // A GET's other fields are query parameters (settings/router.ts).
    if (!takesBody)
      for (const [name, schema] of Object.entries(props)) {
        if (inPath.has(name)) continue;
        parameters.push({ name, in: 'query', required: (input.required ?? []).includes(name), description: (schema as JsonSchema).description, schema: { ...(schema as JsonSchema), description: undefined } });
      }
    const bodyProps = Object.fromEntries(Object.entries(props).filter(([name]) => !inPath.has(name)));
    const bodyRequired = (input.required ?? []).filter((n) => !inPath.has(n));
    const name = `${pascal(route.operationId)}Result`;
    schemas[name] = zodJsonSchema(route.output, 'output');
    const responses: Record<string, unknown> = {
      [route.status ?? 200]: { description: 'OK', content: { 'application/json': { schema: { $ref: `#/components/schemas/${name}` } } } },
    };
    // What the router answers for every route of a kind (router.ts): a body over the limit; the personal bucket.
    const statuses = new Set([...route.errors, ...(takesBody ? [413] : []), ...(route.access === 'signed-in' ? [429, 503] : [])]);
    for (const status of [...statuses].sort((a, b) => a - b)) {
      responses[status] = { description: ERROR_TEXT[status] ?? 'Error', content: { 'application/json': { schema: { $ref: '#/components/schemas/Error' } } } };
    }
    paths[route.path] ??= {};
    paths[route.path][route.method.toLowerCase()] = JSON.parse(
      JSON.stringify({
        operationId: route.operationId,
        summary: route.summary,
        description: route.description,
        tags: [route.tag ?? 'settings'],
        ...(parameters.length ? { parameters } : {}),
        ...(takesBody && Object.keys(bodyProps).length
          ? {
              requestBody: {
                required: bodyRequired.length > 0,
                content: { 'application/json': { schema: { ...input, properties: bodyProps, required: bodyRequired.length ? bodyRequired : undefined } } },
              },
            }
          : {}),
        responses,
        security: route.access === 'public' ? [] : [{ sessionCookie: [] }, { bearerAuth: [] }],
      }),
    );
  }
  return { paths, schemas };
}

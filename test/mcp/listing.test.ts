import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { AjvJsonSchemaValidator } from '@modelcontextprotocol/sdk/validation/ajv';
import { inputJsonSchema, outputJsonSchema, type JsonSchema } from '../../tools/jsonSchema.js';
import type { Listening } from '../../src/http/listen.js';
import { mcpCatalog, registryServerJson, serverCardV2, SHORT_DESCRIPTION } from '../../src/http/mcpDiscovery.js';
import { SERVER_INSTRUCTIONS } from '../../tools/instructions.js';
import { CLASSIFICATION_RULES } from '../../src/chess/classification.js';
import { packageJson, packageRoot } from '../../src/paths.js';
import { HTTP_STATUS_PATTERN } from '../../tools/outcomes.js';
import { tools } from '../../tools/index.js';
import { prompts } from '../../tools/prompts.js';
import { makeTestApp, type TestApp } from '../helpers/app.js';
import { makeAnalysis } from '../helpers/analysis.js';
import { insertReviewedGame } from '../helpers/reviewed.js';
import { mcpClient, rest, startServer } from '../helpers/server.js';

/** tools/list as measured before issue 43 (`npx tsx test/mcp/listingSize.ts`): 138,623 bytes of compact JSON. */
const BEFORE_BYTES = 138_623;
/** The budget issue 43 sets: 64 KB. */
const LISTING_BUDGET = 65_536;

/** Every property of every object in a schema, with the path it sits at. */
function properties(schema: JsonSchema, path = '$'): Array<[string, JsonSchema]> {
  const out: Array<[string, JsonSchema]> = [];
  const visit = (node: unknown, at: string) => {
    if (Array.isArray(node)) return node.forEach((n, i) => visit(n, `${at}[${i}]`));
    if (!node || typeof node !== 'object') return;
    const n = node as JsonSchema;
    for (const [k, v] of Object.entries(n.properties ?? {})) out.push([`${at}.${k}`, v]);
    for (const [k, v] of Object.entries(n)) visit(v, `${at}/${k}`);
  };
  visit(schema, path);
  return out;
}

/**
 * The data paths a schema declares ($.a.b, $.list[], $.map{}), each with the value set it allows where it
 * has one: $refs followed into the schema's $defs (beside the node's own keywords, as 2020-12 applies them),
 * anyOf/allOf/oneOf branches taken alike.
 */
function dataPaths(schema: JsonSchema): Map<string, string | undefined> {
  const defs = (schema.$defs ?? {}) as Record<string, JsonSchema>;
  const out = new Map<string, string | undefined>();
  const visit = (node: JsonSchema | undefined, at: string, depth: number) => {
    if (!node || typeof node !== 'object' || depth > 40) return;
    if (typeof node.$ref === 'string') visit(defs[node.$ref.slice('#/$defs/'.length)], at, depth + 1);
    for (const k of ['anyOf', 'allOf', 'oneOf']) for (const b of (node[k] as JsonSchema[] | undefined) ?? []) visit(b, at, depth + 1);
    const values = Array.isArray(node.enum) ? JSON.stringify(node.enum) : 'const' in node ? JSON.stringify([node.const]) : undefined;
    if (values !== undefined) out.set(at, values);
    for (const [k, v] of Object.entries(node.properties ?? {})) {
      const p = `${at}.${k}`;
      if (!out.has(p)) out.set(p, undefined);
      visit(v, p, depth + 1);
    }
    if (node.items && typeof node.items === 'object') visit(node.items as JsonSchema, `${at}[]`, depth + 1);
    if (node.additionalProperties && typeof node.additionalProperties === 'object') visit(node.additionalProperties as JsonSchema, `${at}{}`, depth + 1);
  };
  visit(schema, '$', 0);
  return out;
}

describe('the lean tool listing', () => {
  let app: TestApp;
  let server: Listening;
  let client: Client;
  beforeAll(async () => {
    app = makeTestApp();
    server = await startServer(app);
    client = await mcpClient(server.url);
  });
  afterAll(async () => {
    await client?.close();
    await server?.close();
    await app?.close();
  });

  test('tools/list through the SDK client: at most 64 KB (138,623 bytes before issue 43)', async () => {
    const listed = await client.listTools();
    expect(listed.tools).toHaveLength(29);
    // The whole answer counts, the chat board's _meta on four tools (tools/app.ts) included.
    const bytes = Buffer.byteLength(JSON.stringify(listed));
    const boardMeta = listed.tools.reduce((n, t) => n + (t._meta ? Buffer.byteLength(`,"_meta":${JSON.stringify(t._meta)}`) : 0), 0);
    console.log(`tools/list: ${bytes} bytes, ${boardMeta} of them the chat board's _meta (before issue 43: ${BEFORE_BYTES}; budget ${LISTING_BUDGET})`);
    expect(bytes).toBeLessThanOrEqual(LISTING_BUDGET);
  });

  test('inputs are listed whole, every property described; outputs carry no description (said once: OpenAPI and the schema resource)', async () => {
    const { tools: listed } = await client.listTools();
    for (const t of tools) expect(listed.find((l) => l.name === t.name)!.inputSchema, t.name).toEqual(JSON.parse(JSON.stringify(inputJsonSchema(t))));
    const undescribed: string[] = [];
    for (const t of listed) {
      for (const [path, prop] of properties(t.inputSchema as JsonSchema, `${t.name}:input`)) {
        if (typeof prop.description !== 'string' || prop.description.trim() === '') undescribed.push(path);
      }
    }
    expect(undescribed).toEqual([]);
    const described: string[] = [];
    JSON.stringify(listed.map((t) => t.outputSchema), (k, v) => (k === 'description' && typeof v === 'string' && described.push(v), v));
    expect(described).toEqual([]);
    // Each tool's title once: annotations carry the hints only.
    for (const t of listed) expect(t.annotations && 'title' in t.annotations, t.name).toBe(false);
    for (const t of tools) expect(listed.find((l) => l.name === t.name)!.annotations).toEqual(t.annotations);
  });

  test.each(tools.map((t) => [t.name, t] as const))('%s: every output field of the full schema is declared in the listing, with its value set', async (_, t) => {
    const lean = (await client.listTools()).tools.find((l) => l.name === t.name)!.outputSchema as JsonSchema;
    const full = dataPaths(outputJsonSchema(t));
    const listed = dataPaths(lean);
    expect(full.size).toBeGreaterThan(1);
    expect([...full.keys()].filter((p) => !listed.has(p))).toEqual([]);
    expect([...listed.keys()].filter((p) => !full.has(p))).toEqual([]);
    // An enum or const of the full schema is in the listing (a nullable one with null added).
    for (const [p, values] of full) {
      if (values === undefined) continue;
      const lean = JSON.parse(listed.get(p) ?? '[]') as unknown[];
      for (const v of JSON.parse(values) as unknown[]) expect(lean, `${t.name} ${p}`).toContainEqual(v);
    }
    expect(lean.type).toBe('object');
    expect(JSON.stringify(lean)).not.toContain('"required"');
  });

  test("the SDK's validator with the lean schema: a real answer passes, a missing field passes, a wrong type or value fails", async () => {
    const listed = (await client.listTools()).tools.find((t) => t.name === 'list_library_games')!;
    const check = new AjvJsonSchemaValidator().getValidator(listed.outputSchema as JsonSchema);
    // The client has listed the tools, so callTool itself validates structuredContent against the lean schema.
    const real = (await client.callTool({ name: 'list_library_games', arguments: { era: 'romantic' } })).structuredContent as { games: Array<Record<string, unknown>> };
    expect(real.games.length).toBeGreaterThan(0);
    expect(check(real).valid).toBe(true);
    const { summary: _dropped, ...withoutSummary } = real.games[0];
    expect(check({ games: [withoutSummary] }).valid).toBe(true);
    expect(check({ games: [{ ...real.games[0], themes: 'attack' }] }).valid).toBe(false);
    expect(check({ games: [{ ...real.games[0], era: 'medieval' }] }).valid).toBe(false);
  });

  test('the full field text is one resources/read away', async () => {
    const t = tools.find((x) => x.name === 'get_game_analysis')!;
    const read = await client.readResource({ uri: 'chess-footprint://schema/get_game_analysis' });
    const body = JSON.parse((read.contents[0] as { text: string }).text);
    expect(body).toEqual(JSON.parse(JSON.stringify({ name: t.name, description: t.description, inputSchema: inputJsonSchema(t), outputSchema: outputJsonSchema(t) })));
    // The mate-value rule is cut from the listing (past the first clause) and kept here.
    const rule = 'a large equivalent so mates outrank every cp score';
    expect((read.contents[0] as { text: string }).text).toContain(rule);
    expect(JSON.stringify((await client.listTools()).tools)).not.toContain(rule);
    await expect(client.readResource({ uri: 'chess-footprint://schema/no_such_tool' })).rejects.toThrow(/no tool named no_such_tool/);
  });

  test('no MCP-facing tool description mentions an HTTP status; the OpenAPI text keeps them', async () => {
    const { tools: listed } = await client.listTools();
    for (const t of listed) expect(t.description, t.name).not.toMatch(HTTP_STATUS_PATTERN);
    const byName = new Map(tools.map((t) => [t.name, t]));
    expect(byName.get('get_game_analysis')!.httpDescription).toContain('answers 404');
    expect(byName.get('get_game_analysis')!.description).toContain('answers a not-found tool error');
    expect(byName.get('request_game_review')!.httpDescription).toContain('queued (202)');
    const openapi = (await rest(server.url, '/openapi.json')).body;
    expect(openapi.paths['/api/v1/me/games/{id}/analysis'].get.description).toContain('answers 404');
  });

  test('the server instructions name all seven prompts, each with when it is the right one', () => {
    for (const p of prompts) expect(SERVER_INSTRUCTIONS, p.name).toMatch(new RegExp(`\\b${p.name} (when|for|to|before) `));
    expect(prompts).toHaveLength(7);
  });

  test('the classification rules are stated once, in the server instructions, and the analysis tools point there', async () => {
    expect(client.getInstructions()).toBe(SERVER_INSTRUCTIONS);
    expect(SERVER_INSTRUCTIONS).toContain(CLASSIFICATION_RULES);
    const { tools: listed } = await client.listTools();
    const text = JSON.stringify(listed);
    expect(text).not.toContain(CLASSIFICATION_RULES.slice(0, 60));
    for (const name of ['get_game_analysis', 'get_critical_moments']) {
      expect(listed.find((t) => t.name === name)!.description).toContain('server instructions');
    }
  });

  test.each(tools.map((t) => [t.name, t] as const))('%s: every output field is described (directly or by its shared definition)', (_, t) => {
    const schema = outputJsonSchema(t);
    const defs = (schema.$defs ?? {}) as Record<string, JsonSchema>;
    const missing = properties(schema)
      .filter(([, prop]) => !(prop.description ?? (typeof prop.$ref === 'string' ? defs[prop.$ref.slice('#/$defs/'.length)]?.description : undefined)))
      .map(([path]) => path);
    expect(missing).toEqual([]);
  });

  test('shared shapes are defined once per listing and referenced', () => {
    const analysis = outputJsonSchema(tools.find((t) => t.name === 'get_game_analysis')!);
    expect(Object.keys(analysis.$defs ?? {})).toEqual(expect.arrayContaining(['Evaluation', 'MoveRef', 'Ply']));
    expect(JSON.stringify(analysis).split('"cp: a centipawn score; mate: a forced mate"')).toHaveLength(2);
  });
});

describe('real answers against the lean listing, through the SDK client', () => {
  let app: TestApp;
  let server: Listening;
  let client: Client;
  let gameId: string;
  beforeAll(async () => {
    app = makeTestApp({ now: '2026-11-20T12:00:00Z' });
    const me = app.addUser('Owner');
    // Two reviewed games (1. e4 c5 2. Nf3 as White), so the analysis tools answer with plies, moments and figures.
    const g1 = makeAnalysis({ sanMoves: ['e4', 'c5', 'Nf3', 'd6'], evals: [20, -30, 25, -40, 35] });
    const g2 = makeAnalysis({ sanMoves: ['e4', 'c5', 'Nf3', 'Nc6'], evals: [20, -30, 25, 20, -330] });
    gameId = insertReviewedGame(app.deps.store, me.user, g1, { sanMoves: 'e4 c5 Nf3 d6', result: 'win', platformAccuracy: 80, playedAt: '2026-11-10T12:00:00.000Z' });
    insertReviewedGame(app.deps.store, me.user, g2, { sanMoves: 'e4 c5 Nf3 Nc6', result: 'loss', playedAt: '2026-11-12T12:00:00.000Z' });
    server = await startServer(app);
    client = await mcpClient(server.url, me.token);
  });
  afterAll(async () => {
    await client?.close();
    await server?.close();
    await app?.close();
  });

  const calls: Array<[string, () => Record<string, unknown>]> = [
    ['get_profile', () => ({})],
    ['get_chess_stats', () => ({})],
    ['get_rating_progress', () => ({})],
    ['list_games', () => ({})],
    ['get_game', () => ({ id: gameId })],
    ['get_game_analysis', () => ({ id: gameId })],
    ['get_critical_moments', () => ({ id: gameId })],
    ['get_problem_lines', () => ({})],
    ['get_weakness_profile', () => ({ range: 'all' })],
    ['get_coaching_state', () => ({})],
    ['list_library_games', () => ({})],
  ];
  test.each(calls)('%s: structuredContent validates against the listed outputSchema (and not against a broken copy)', async (name, args) => {
    const listed = (await client.listTools()).tools.find((t) => t.name === name)!;
    // The client has listed the tools, so callTool itself validates structuredContent against the listed schema.
    const res = await client.callTool({ name, arguments: args() });
    expect(res.isError, JSON.stringify(res.content)).toBeFalsy();
    const check = new AjvJsonSchemaValidator().getValidator(listed.outputSchema as JsonSchema);
    expect(check(res.structuredContent).valid).toBe(true);
    // The listing still checks structure: the answer's first object field replaced by a string fails.
    const body = res.structuredContent as Record<string, unknown>;
    const field = Object.keys(body).find((k) => body[k] && typeof body[k] === 'object' && !Array.isArray(body[k]) && dataPathsOf(listed.outputSchema as JsonSchema, k));
    if (field) expect(check({ ...body, [field]: 'not an object' }).valid, field).toBe(false);
  });
});

/** Whether the listed schema declares `key` at the root as an object (possibly nullable). */
function dataPathsOf(schema: JsonSchema, key: string): boolean {
  return [...dataPaths(schema).keys()].some((p) => p.startsWith(`$.${key}.`));
}

describe('MCP discovery documents', () => {
  test('server.json at the package root is the generated one, and names the package mcpName', () => {
    const file = JSON.parse(readFileSync(join(packageRoot, 'server.json'), 'utf8'));
    expect(file).toEqual(registryServerJson());
    expect(file.name).toBe(packageJson.mcpName);
    expect(file.name).toMatch(/^[a-zA-Z0-9.-]+\/[a-zA-Z0-9._-]+$/);
    expect(file.packages[0]).toMatchObject({ registryType: 'npm', identifier: 'chess-footprint', transport: { type: 'stdio' } });
    expect(SHORT_DESCRIPTION.length).toBeLessThanOrEqual(100);
  });

  test('the SEP-2127 card, the MCP catalog and the earlier card are served', async () => {
    const app = makeTestApp();
    const server = await startServer(app);
    try {
      const card = await rest(server.url, '/api/mcp/server-card');
      expect(card.headers.get('content-type')).toContain('application/mcp-server-card+json');
      expect(card.headers.get('access-control-allow-origin')).toBe('*');
      expect(card.body).toEqual(JSON.parse(JSON.stringify(serverCardV2(server.url))));
      expect(card.body.remotes[0]).toMatchObject({ type: 'streamable-http', url: `${server.url}/api/mcp` });
      const catalog = await rest(server.url, '/.well-known/mcp/catalog.json');
      expect(catalog.body).toEqual(mcpCatalog(server.url));
      expect(catalog.body.entries[0].url).toBe(`${server.url}/api/mcp/server-card`);
      const legacy = (await rest(server.url, '/.well-known/mcp.json')).body;
      expect(legacy.capabilities).toMatchObject({ prompts: {}, resources: {} });
      expect(legacy.prompts).toHaveLength(7);
      expect(legacy.resourceTemplates).toHaveLength(10);
      // The earlier card lists the tools exactly as tools/list does (the lean form), plus where each is served.
      const mcp = await mcpClient(server.url);
      try {
        const listed = (await mcp.listTools()).tools;
        const bare = ({ _meta, ...t }: { _meta?: unknown }) => t;
        expect(legacy.tools.map(bare)).toEqual(JSON.parse(JSON.stringify(listed.map(bare))));
        // A listing's own _meta (the chat board's, tools/app.ts) is kept beside where the tool is served.
        listed.forEach((t, i) => expect(legacy.tools[i]._meta).toMatchObject(t._meta ?? {}));
      } finally {
        await mcp.close();
      }
      expect((await rest(server.url, '/server.json')).body).toEqual(registryServerJson());
    } finally {
      await server.close();
      await app.close();
    }
  });
});

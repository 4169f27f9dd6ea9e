import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import type { Listening } from '../../src/http/listen.js';
import { buildChatBoard } from '../../web/app/build.js';
import { makeTestApp, type TestApp } from '../helpers/app.js';
import { mcpClient, startServer } from '../helpers/server.js';

// The chat board (MCP Apps, io.modelcontextprotocol/ui) as an MCP client meets it: the four tools that carry it,
// the ui:// resource in resources/list and resources/read, a page that fetches nothing, and answers unchanged.

const URI = 'ui://chess-footprint/board';
// The MCP Apps mime type (ext-apps RESOURCE_MIME_TYPE; spec 2026-01-26, "UI Resource Format").
const MIME = 'text/html;profile=mcp-app';

describe('the chat board over MCP', { timeout: 60_000 }, () => {
  let app: TestApp;
  let server: Listening;
  let client: Client;
  let html: string;

  beforeAll(async () => {
    await buildChatBoard();
    app = makeTestApp();
    server = await startServer(app);
    client = await mcpClient(server.url);
    const read = await client.readResource({ uri: URI });
    expect(read.contents).toHaveLength(1);
    html = (read.contents[0] as { text: string }).text;
  });
  afterAll(async () => {
    await client?.close();
    await server?.close();
    await app?.close();
  });

  test('tools/list names the board on get_game, get_game_analysis, get_critical_moments and get_library_game, and on no other tool', async () => {
    const { tools } = await client.listTools();
    const carrying = tools.filter((t) => t._meta !== undefined);
    expect(carrying.map((t) => t.name).sort()).toEqual(['get_critical_moments', 'get_game', 'get_game_analysis', 'get_library_game']);
    for (const t of carrying) {
      // The spec's key, and the flat legacy key ext-apps' registerAppTool writes beside it for older hosts.
      expect(t._meta).toEqual({ ui: { resourceUri: URI }, 'ui/resourceUri': URI });
    }
  });

  test('resources/list lists the board with the MCP Apps mime type; resources/read serves that page whole', async () => {
    const { resources } = await client.listResources();
    const board = resources.find((r) => r.uri === URI);
    expect(board).toMatchObject({ mimeType: MIME, _meta: { ui: { prefersBorder: true } } });
    const read = await client.readResource({ uri: URI });
    expect(read.contents[0]).toMatchObject({ uri: URI, mimeType: MIME, _meta: { ui: { prefersBorder: true } } });
    expect(html.startsWith('<!doctype html>')).toBe(true);
    expect(html).toContain('<div id="app">');
    // The script is in the page (ext-apps' App class and the board), not fetched.
    expect(html).toMatch(/<script type="module">[\s\S]{100000,}<\/script>/);
  });

  test('the page names no external URL to load: no src or href to http(s), no script or stylesheet by URL, no CSS url(http)', () => {
    expect(html).not.toMatch(/\b(?:src|href)\s*=\s*["']?\s*(?:https?:)?\/\//i);
    expect(html).not.toMatch(/<script[^>]*\bsrc\s*=/i);
    expect(html).not.toMatch(/<link\b/i);
    expect(html).not.toMatch(/@import|url\(\s*["']?(?:https?:)?\/\//i);
    // The libraries bundled into it travel with their licences.
    for (const name of ['chess.js', '@modelcontextprotocol/ext-apps', '@modelcontextprotocol/sdk', 'zod']) expect(html).toContain(`${name} (https://www.npmjs.com/package/${name}):`);
    // Nor does it carry the optional React half of ext-apps.
    expect(html).not.toMatch(/react-dom|__SECRET_INTERNALS|useSyncExternalStore/);
  });

  test('a host without the extension gets the same answer as before: the JSON as text and structuredContent, nothing else', async () => {
    const r = await client.callTool({ name: 'get_library_game', arguments: { slug: 'anderssen-kieseritzky-1851' } });
    expect(Object.keys(r).sort()).toEqual(['content', 'structuredContent']);
    expect(r.content).toEqual([{ type: 'text', text: JSON.stringify(r.structuredContent) }]);
    expect((r.structuredContent as { white: string }).white).toBe('Anderssen, Adolf');
  });

  test('resources/templates/list does not offer the board as a template', async () => {
    const { resourceTemplates } = await client.listResourceTemplates();
    expect(resourceTemplates.some((t) => t.uriTemplate.startsWith('ui://'))).toBe(false);
  });
});

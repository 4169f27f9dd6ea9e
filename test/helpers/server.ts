import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { listen, type Listening } from '../../src/http/listen.js';
import { tools } from '../../tools/index.js';
import type { TestApp } from './app.js';

/** The real HTTP surface of a test app on a free loopback port. */
export async function startServer(app: TestApp): Promise<Listening> {
  return listen(tools, app.deps, { host: '127.0.0.1', port: 0 });
}

/** The MCP SDK's own client over streamable HTTP, with or without a bearer token. */
export async function mcpClient(url: string, token?: string): Promise<Client> {
  const client = new Client({ name: 'chess-footprint-test', version: '0.0.0' });
  const transport = new StreamableHTTPClientTransport(new URL(`${url}/api/mcp`), {
    requestInit: token ? { headers: { Authorization: `Bearer ${token}` } } : undefined,
  });
  await client.connect(transport);
  return client;
}

export async function rest(url: string, path: string, init: RequestInit & { token?: string } = {}) {
  const headers = new Headers(init.headers);
  if (init.token) headers.set('Authorization', `Bearer ${init.token}`);
  const res = await fetch(url + path, { ...init, headers });
  const text = await res.text();
  let body: unknown = text;
  try {
    body = JSON.parse(text);
  } catch {
    // not JSON: keep the text
  }
  return { status: res.status, headers: res.headers, body: body as any };
}

import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
const client = new Client({ name: 'x', version: '0' });
await client.connect(new StreamableHTTPClientTransport(new URL(process.env.URL ?? 'http://127.0.0.1:3917/api/mcp'), { requestInit: { headers: { Authorization: `Bearer ${process.env.TOK}` } } }));
const r = await client.callTool({ name: process.argv[2], arguments: JSON.parse(process.argv[3] ?? '{}') });
console.log(JSON.stringify(r.structuredContent ?? r.content, null, 1));
await client.close();

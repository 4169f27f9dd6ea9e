import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
const [,, name, args] = process.argv;
const token = process.env.TOK;
const client = new Client({ name: 'x', version: '0' });
await client.connect(new StreamableHTTPClientTransport(new URL('http://127.0.0.1:3917/api/mcp'), { requestInit: { headers: { Authorization: `Bearer ${token}` } } }));
const r = await client.callTool({ name, arguments: JSON.parse(args ?? '{}') });
console.log(JSON.stringify(r.structuredContent ?? r.content, null, 1));
await client.close();

// Child process of the HTTP benchmarks: the real server as shipped (the compiled dist/, plain node,
// no TypeScript loader whose own memory would count in the server's RSS) on a bench store, and the
// baseline, a bare express app with one trivial route, answering in the same process (the same heap
// and collector) but not behind the real app's routers: mounted inside the app, after them, the
// "bare" route paid for matching every route before it. Prints one JSON line when listening: its URL
// and how long opening the store and building the app took. No background work (reviews, sync).
import { createServer } from 'node:http';
import express from 'express';
import { createAppDeps } from '../../dist/src/app.js';
import { loadConfig } from '../../dist/src/config.js';
import { limitHeapGrowth } from '../../dist/src/heapGrowth.js';
import { createHttpApp } from '../../dist/src/http/app.js';
import { tools } from '../../dist/tools/index.js';

limitHeapGrowth(); // as `serve` does
const started = performance.now();
const dataDir = process.argv[2];
// serving: the short lock wait `serve` and `mcp` use (src/store/busy.ts).
const deps = createAppDeps(loadConfig({ dataDir }, { ...process.env, CFP_RATE_LIMITS: process.env.CFP_RATE_LIMITS ?? 'off' }), { serving: true });
const BARE = '/bench/trivial';
const bare = express().get(BARE, (_req, res) => {
  res.json({ ok: true });
});
// As src/http/listen.ts does: the app's documents need the URL, known once bound.
let app = null;
const server = createServer((req, res) => (req.url === BARE ? bare(req, res) : app(req, res)));
await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
const url = `http://127.0.0.1:${server.address().port}`;
app = createHttpApp(tools, deps, { baseUrl: url });
console.log(JSON.stringify({ url, startMs: performance.now() - started }));
process.on('SIGTERM', () => process.exit(0));

// Child process of the HTTP benchmarks: the real server as shipped (the compiled dist/, plain node,
// no TypeScript loader whose own memory would count in the server's RSS) on a bench store, plus a
// trivial express route in the same app as the baseline. Prints one JSON line when listening: its
// URL and how long opening the store and building the app took. No background work (reviews, sync).
import express from 'express';
import { createAppDeps } from '../../dist/src/app.js';
import { loadConfig } from '../../dist/src/config.js';
import { limitHeapGrowth } from '../../dist/src/heapGrowth.js';
import { listen } from '../../dist/src/http/listen.js';
import { tools } from '../../dist/tools/index.js';

limitHeapGrowth(); // as `serve` does
const started = performance.now();
const dataDir = process.argv[2];
const deps = createAppDeps(loadConfig({ dataDir }, { ...process.env, CFP_RATE_LIMITS: process.env.CFP_RATE_LIMITS ?? 'off' }));
const trivial = express.Router().get('/bench/trivial', (_req, res) => {
  res.json({ ok: true });
});
const server = await listen(tools, deps, { host: '127.0.0.1', port: 0, extraRouters: [trivial] });
console.log(JSON.stringify({ url: server.url, startMs: performance.now() - started }));
process.on('SIGTERM', () => process.exit(0));

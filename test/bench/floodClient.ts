import { request } from 'node:http';

/**
 * The strangers of the unauthenticated-flood bench (unauthFlood.ts), run as their own process:
 * `floodClient.ts URL SECONDS CLIENTS`. Each client sends one request after another until the time is up:
 * a 1 MiB JSON body nested half a million levels deep (`[[[…]]]`, the worst text for a parser), no
 * Authorization, to the routes that read large bodies (a fishnet submission, 1 MiB allowed; the
 * repertoire, about 1.1 MB allowed) with the size declared, and to the MCP and REST facades chunked (so
 * their refusal of a declared oversize body does not apply). Prints `{ "path status": count }` at the end.
 */
const [url, seconds, clients] = process.argv.slice(2);
const MIB = 1024 * 1024;
const BODY = Buffer.from('['.repeat(MIB / 2) + ']'.repeat(MIB / 2));
const TARGETS: Array<{ method: string; path: string; chunked: boolean }> = [
  { method: 'POST', path: '/fishnet/analysis/some-job', chunked: false },
  { method: 'PUT', path: '/api/v1/prep/repertoire/white', chunked: false },
  { method: 'POST', path: '/api/mcp', chunked: true },
  { method: 'POST', path: '/api/v1/me/coaching/entries', chunked: true },
];
const base = new URL(url);
const until = performance.now() + Number(seconds) * 1000;
const statuses: Record<string, number> = {};

async function stranger(first: number): Promise<void> {
  for (let i = first; performance.now() < until; i += 1) {
    const t = TARGETS[i % TARGETS.length];
    const status = await new Promise<string>((done) => {
      const headers: Record<string, string> = { 'content-type': 'application/json', accept: 'application/json, text/event-stream' };
      if (!t.chunked) headers['content-length'] = String(BODY.length);
      const req = request({ host: base.hostname, port: base.port, method: t.method, path: t.path, headers, agent: false }, (res) => {
        res.resume();
        res.on('end', () => done(String(res.statusCode)));
        res.on('error', () => done(String(res.statusCode)));
      });
      // A server that answers before the body is read closes the socket under the rest of it.
      req.on('error', (e: NodeJS.ErrnoException) => done(e.code ?? 'error'));
      // write then end: Node sends a body given whole to end() with a Content-Length; this one goes chunked.
      req.write(BODY);
      req.end();
    });
    statuses[`${t.path} ${status}`] = (statuses[`${t.path} ${status}`] ?? 0) + 1;
  }
}

await Promise.all(Array.from({ length: Number(clients) }, (_, k) => stranger(k)));
process.stdout.write(JSON.stringify(statuses));

import { request } from 'node:http';
import { setPriority } from 'node:os';

/**
 * The strangers of the unauthenticated-flood bench (unauthFlood.ts), run as their own process:
 * `floodClient.ts URL SECONDS CLIENTS`. Each client sends one request after another until the time is up:
 * a 1 MiB JSON body nested half a million levels deep (`[[[…]]]`, the worst text for a parser), no
 * Authorization, to the routes that read large bodies (a fishnet submission, 1 MiB allowed; the
 * repertoire, about 1.1 MB allowed) with the size declared, and to the MCP and REST facades chunked (so
 * their refusal of a declared oversize body does not apply). Prints `{ "path status": count }` at the end,
 * with this process's own CPU time under `cpu ms`. A fourth argument, a nice value, lowers this process's
 * priority (os.setPriority): the bench's variant that keeps the strangers' own writing off the server's CPU
 * ('-' leaves it). A fifth, requests per second for all clients together, paces them (none: each sends its
 * next request as soon as the last is answered, so the faster the refusal, the heavier the flood).
 */
const [url, seconds, clients, nice, perSecond] = process.argv.slice(2);
if (nice !== undefined && nice !== '-') setPriority(Number(nice));
/** Milliseconds between one client's requests when paced. */
const interval = perSecond === undefined ? 0 : (1000 * Number(clients)) / Number(perSecond);
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
  const start = performance.now() + (interval * first) / Number(clients);
  for (let i = first; performance.now() < until; i += 1) {
    const due = start + interval * (i - first);
    if (interval && performance.now() < due) await new Promise((r) => setTimeout(r, due - performance.now()));
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
const cpu = process.cpuUsage();
process.stdout.write(JSON.stringify({ ...statuses, 'cpu ms': Math.round((cpu.user + cpu.system) / 1000) }));

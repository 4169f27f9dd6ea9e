import { existsSync, readFileSync } from 'node:fs';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { join } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { Chess } from 'chess.js';
import { packageRoot } from '../../src/paths.js';
import { LIMITS_FILE } from '../../src/limits/limiter.js';
import Database from 'better-sqlite3';
import { startFixtureServer } from '../helpers/fixtureServer.js';
import { killAndReap } from '../helpers/processes.js';
import { type Counted, counted, MIB, type Sweep } from './sweepKit.js';
import { freePort, readStore, send, SweptServer, Tally } from './sweepRig.js';
import { cliRun } from './workerFleet.js';

/**
 * Issue 44 items 8, 9 and 11 in the sweep (sweep.ts): lichess's opening explorer failing in each way the issue
 * measured, and a scout whose stdio process is killed mid-fetch. A local fake explorer (node:http) switches its
 * failure mode; a second shipped server on the sweep's store, its explorer and lichess pointed at the fakes, serves
 * P's peers view (REST, P's token) ten times or more per mode. Counted: the answers, the explorer requests per mode,
 * the `scout` units charged (limits.sqlite beside the store, read-only), the bytes of the explorer tables after each
 * mode (the store, read-only), and the reason each answer shows.
 */

/** The scout bucket here: a limit no mode reaches and a refill of one unit an hour, so a charge shows as a whole unit. */
const SCOUT_LIMIT = 24;
const SCOUT_WINDOW_S = 86_400;
const LIMITS = `scout:${SCOUT_LIMIT}/${SCOUT_WINDOW_S},personal:100000/60`;
/** Short source timeouts and one retry (config.ts's minimums allow these), so the stall mode is seconds, not minutes. */
const SOURCE_ENV = { CFP_SOURCE_CONNECT_TIMEOUT_MS: '1500', CFP_SOURCE_IDLE_TIMEOUT_MS: '1000', CFP_SOURCE_MAX_RETRIES: '1' };
const READS = 10;
const BANDS = [0, 1000, 1200, 1400, 1600, 1800, 2000, 2200, 2500] as const;

type Mode = { name: string; names: RegExp; answer: (res: ServerResponse, url: URL, other: string) => void | Promise<void>; ok?: boolean };

const json = (res: ServerResponse, body: unknown) => void res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(body));

/** Every legal move of the position with made-up counts: a well-formed answer of the fake, to show the fake is reached. */
function wellFormed(fen: string) {
  const moves = new Chess(fen).moves({ verbose: true }).slice(0, 30);
  return { white: 30 * moves.length, draws: 10 * moves.length, black: 20 * moves.length, moves: moves.map((m) => ({ uci: m.lan, san: m.san, averageRating: 1600, white: 30, draws: 10, black: 20 })), opening: null };
}

/** Writes `total` bytes of one JSON answer (chunked, no length declared) until the reader goes away; the bytes written. */
async function stream(res: ServerResponse, head: string, fill: string, tail: string, total: number): Promise<number> {
  res.writeHead(200, { 'content-type': 'application/json' });
  let written = 0;
  let closed = false;
  const gone = new Promise<void>((r) => res.once('close', () => ((closed = true), r())));
  const write = (s: string) => (res.write(s) ? Promise.resolve() : Promise.race([new Promise<void>((r) => res.once('drain', r)), gone]));
  await write(head);
  written += head.length;
  const chunk = fill.repeat(Math.ceil(65_536 / fill.length));
  while (!closed && written < total) {
    await write(chunk);
    written += chunk.length;
  }
  if (!closed) res.end(tail);
  return written;
}

export async function explorerFailures(s: Sweep): Promise<Counted[]> {
  const t = new Tally();
  const notes: string[] = [];
  let undocumented = 0;
  let refusedStored = 0;
  const fake = await startFixtureServer();
  const other = await startFixtureServer();
  let mode: Mode | null = null;
  let explorerRequests = 0;
  let bytesServed = 0;
  let open = 0;
  let mostOpen = 0;
  let holdMs = 0;
  fake.intercept(async (_req: IncomingMessage, res, url) => {
    if (url.pathname !== '/lichess' && url.pathname !== '/masters') return false;
    explorerRequests += 1;
    open += 1;
    mostOpen = Math.max(mostOpen, open);
    res.once('close', () => (open -= 1));
    if (holdMs) await new Promise((r) => setTimeout(r, holdMs));
    if (mode) await mode.answer(res, url, other.url);
    return true;
  });
  const modes: Mode[] = [
    { name: 'a well-formed answer', names: /^$/, ok: true, answer: (res, url) => json(res, wellFormed(url.searchParams.get('fen')!)) },
    { name: 'HTTP 500', names: /HTTP 500/, answer: (res) => void res.writeHead(500, { 'content-type': 'text/html' }).end('<b>oops</b>') },
    { name: 'garbage JSON', names: /not JSON/, answer: (res) => void res.writeHead(200, { 'content-type': 'application/json' }).end('{"white": 12, "moves": [{"uci": "e2e4",') },
    { name: 'a wrong shape', names: /did not parse/, answer: (res) => json(res, { white: 'many', moves: {} }) },
    { name: 'a closed connection', names: /could not be reached|stopped answering/, answer: (res) => void res.socket?.destroy() },
    { name: 'a stall (no answer)', names: /stopped answering|no answer within/, answer: (res) => new Promise<void>((r) => res.once('close', r)) },
    { name: 'a 50 MB body', names: /larger than/, answer: async (res) => void (bytesServed += await stream(res, '{"white":0,"draws":0,"black":0,"moves":[],"pad":"', 'x', '"}', 50 * MIB)) },
    { name: 'a 302 to another origin', names: /redirect to http:\/\/127\.0\.0\.1:\d+, not followed/, answer: (res, url, to) => void res.writeHead(302, { location: `${to}${url.pathname}${url.search}` }).end() },
    {
      name: 'a 5 MB san',
      names: /larger than|not a move in SAN/,
      answer: async (res) => void (bytesServed += await stream(res, '{"white":1,"draws":0,"black":0,"moves":[{"uci":"e2e4","san":"e4', 'x', '","white":1,"draws":0,"black":0}]}', 5 * MIB)),
    },
    { name: 'markup in san (`<b>e4`)', names: /not a move in SAN/, answer: (res) => json(res, { white: 1, draws: 0, black: 0, moves: [{ uci: 'e2e4', san: '<b>e4', white: 1, draws: 0, black: 0 }] }) },
    {
      name: 'a 1 MB opening name',
      names: /larger than|name/,
      answer: async (res) => void (bytesServed += await stream(res, '{"white":1,"draws":0,"black":0,"moves":[],"opening":{"eco":"B20","name":"', 'Sicilian ', '"}}', MIB)),
    },
    {
      name: '200,000 moves in one answer',
      names: /larger than|more than the 30 moves/,
      answer: async (res) => void (bytesServed += await stream(res, '{"white":1,"draws":0,"black":0,"moves":[', '{"uci":"e2e4","san":"e4","white":1,"draws":0,"black":0},', '{"uci":"e2e4","san":"e4","white":1,"draws":0,"black":0}]}', 200_000 * 56)),
    },
  ];

  const server = new SweptServer(s.dir, await freePort(), { CFP_LICHESS_EXPLORER_URL: fake.url, CFP_LICHESS_URL: fake.url, CFP_RATE_LIMITS: LIMITS, ...SOURCE_ENV });
  // P's lichess token (the explorer needs one since March 2026), with the CLI as a player gives it.
  await cliRun(['connect', 'siteB', 'sweep-p', '--token', 'lip_sweep_p', '--data-dir', s.dir, '--user', s.p.email]).catch((e: { stderr?: string }) => notes.push(`connect: ${e.stderr?.trim()}`));
  await server.start();
  const rows: string[] = [];
  try {
    // Item 9's last: `serve` and `mcp` over stdio on one store, both reading P's peers at P's own level at once.
    mode = modes[0];
    holdMs = 100;
    const both = await twoProcesses(s, server, fake.url, t);
    rows.push(`two processes at once (the fake answering well-formed, each request held 100 ms): ${both.summary}; ${explorerRequests} explorer requests, at most ${mostOpen} open at once`);
    // Documented: one request at a time per store, each position asked once, the same work charged once.
    if (mostOpen > 1 || explorerRequests > both.positions || both.charged > 1) t.undocumented += 1;
    holdMs = 0;
    let storedBefore = explorerBytes(s);
    // Each mode a (band, time class) of its own, a new piece of work, never P's own level (fetched just now).
    const levels = BANDS.flatMap((band) => (['blitz', 'rapid'] as const).map((timeClass) => ({ band, timeClass }))).filter((l) => !(l.band === both.level?.ratings[0] && l.timeClass === both.level?.timeClass));
    for (const [i, m] of modes.entries()) {
      mode = m;
      explorerRequests = 0;
      bytesServed = 0;
      const { band, timeClass } = levels[i];
      const before = scoutLevel(s);
      const states = new Map<string, number>();
      let last = { state: '', message: '' as string | null };
      let named = 0;
      let reads = 0;
      // At least READS reads, and on until the mode's run has ended (a stall ends with the client's timeout).
      for (; reads < READS || (reads < 60 && /queued|fetching/.test(last.state)); reads += 1) {
        const r = await send(t, `${server.url}/api/v1/settings/openings/white/peers?band=${band}&timeClass=${timeClass}`, { headers: { authorization: `Bearer ${s.p.token}` } });
        if (r.status === 200) {
          const v = JSON.parse(r.text) as { status: { state: string; message: string | null; positions: number; cached: number } };
          last = v.status;
          states.set(v.status.state, (states.get(v.status.state) ?? 0) + 1);
          if (v.status.state === 'error' && m.names.test(v.status.message ?? '')) named += 1;
        }
        await new Promise((r) => setTimeout(r, 300));
      }
      const charged = Math.round(before - scoutLevel(s));
      const stored = explorerBytes(s);
      // Documented (issue 44 item 7): one run per mode (one unit), its requests one try and its retry at most,
      // the reason named once the run failed, nothing of a refused answer stored, no markup stored.
      const failedRightly = m.ok ? last.state === 'ok' : last.state === 'error' && named > 0;
      if (!failedRightly || charged !== 1 || explorerRequests > (m.ok ? 200 : 2)) undocumented += 1;
      if (!m.ok && stored.rows !== storedBefore.rows) refusedStored += 1;
      if (stored.markup) refusedStored += 1;
      storedBefore = stored;
      rows.push(
        `${m.name} (band ${band} ${timeClass}): ${reads} reads (${[...states].map(([k, n]) => `${k} ×${n}`).join(', ')}), ${explorerRequests} explorer requests${bytesServed ? ` (${(bytesServed / MIB).toFixed(1)} MiB written by the fake before the server hung up)` : ''}, ${charged} scout unit${charged === 1 ? '' : 's'}, the reason named in ${named} reads, explorer tables ${stored.rows} rows / ${stored.answerBytes} bytes (largest ${stored.largest}), failures ${stored.failureBytes} bytes; last: ${last.state}${last.message ? ` "${last.message.slice(0, 220)}"` : ''}`,
      );
    }
    notes.push(
      `A second shipped server on the sweep's store (CFP_LICHESS_EXPLORER_URL and CFP_LICHESS_URL at local fakes, CFP_RATE_LIMITS=${LIMITS}, ${Object.entries(SOURCE_ENV).map(([k, v]) => `${k}=${v}`).join(', ')}); P connected lichess (\`connect siteB … --token\`) and read GET /api/v1/settings/openings/white/peers every 0.3 s, ${READS} reads per mode or more until the run ended, each mode its own band and time class (a new piece of work). Another origin's requests (the 302's target): ${other.requests.length}.`,
      ...rows,
    );
    notes.push(await scoutKilled(s, server, fake, t));
    notes.push(`answers: ${t.summary()} (REST reads of the peers; MCP over HTTP for item 11, its session's requests included).`);
  } finally {
    mode = null;
    await server.stop();
    await fake.close();
    await other.close();
  }
  const c = counted("items 8, 9, 11: lichess's explorer failing, a scout killed mid-fetch", t, { refusedStored }, notes);
  c.t.undocumented += undocumented;
  return [{ ...c, crashes: server.crashes }];
}

/** The explorer tables' size, read-only: answers (rows, bytes, the largest) and stored failures; markup anywhere in them. */
function explorerBytes(s: Sweep) {
  const db = readStore(s.dir);
  try {
    const a = db.prepare("SELECT count(*) AS rows, coalesce(sum(length(answer)), 0) AS answerBytes, coalesce(max(length(answer)), 0) AS largest, coalesce(sum(answer LIKE '%<%'), 0) AS markup FROM explorer_answers WHERE user_id = ?").get(s.p.id) as { rows: number; answerBytes: number; largest: number; markup: number };
    const f = db.prepare("SELECT coalesce(sum(length(message)), 0) AS failureBytes, coalesce(sum(message LIKE '%<img%'), 0) AS markup FROM explorer_fetches WHERE user_id = ?").get(s.p.id) as { failureBytes: number; markup: number };
    return { rows: a.rows, answerBytes: a.answerBytes, largest: a.largest, failureBytes: f.failureBytes, markup: a.markup + f.markup > 0 };
  } finally {
    db.close();
  }
}

/** `mcp` over stdio (the shipped CLI) as P, its sources at the fakes: the Claude Desktop set-up of the README. */
function stdioMcp(s: Sweep, fakeUrl: string): { client: Client; transport: StdioClientTransport } {
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: [join(packageRoot, 'bin/chess-footprint.js'), 'mcp', '--data-dir', s.dir],
    env: { PATH: process.env.PATH ?? '', CFP_TOKEN: s.p.token, CFP_LICHESS_URL: fakeUrl, CFP_LICHESS_EXPLORER_URL: fakeUrl, CFP_RATE_LIMITS: LIMITS, ...SOURCE_ENV },
    stderr: 'pipe',
  });
  return { client: new Client({ name: 'sweep-stdio', version: '0.0.0' }), transport };
}

/**
 * The served process (REST) and a stdio `mcp` process read P's white peers at P's own level at once, every 0.3 s
 * each, until both say ok: the explorer requests are counted by the caller, the units charged here.
 */
async function twoProcesses(s: Sweep, server: SweptServer, fakeUrl: string, t: Tally) {
  const before = scoutLevel(s);
  const { client, transport } = stdioMcp(s, fakeUrl);
  await client.connect(transport);
  type View = { level: { ratings: number[]; timeClass: string } | null; status: { state: string; message: string | null; positions: number; cached: number } };
  let level: View['level'] = null;
  let positions = 0;
  const statesOf = async (read: () => Promise<View | null>) => {
    const seen: string[] = [];
    for (let i = 0; i < 60; i += 1) {
      const v = await read();
      if (v && seen.at(-1) !== v.status.state) seen.push(v.status.state);
      level ??= v?.level ?? null;
      positions = Math.max(positions, v?.status.positions ?? 0);
      if (v?.status.state === 'ok') break;
      await new Promise((r) => setTimeout(r, 300));
    }
    return seen.join(' → ');
  };
  const [rest, stdio] = await Promise.all([
    statesOf(async () => {
      const r = await send(t, `${server.url}/api/v1/settings/openings/white/peers`, { headers: { authorization: `Bearer ${s.p.token}` } });
      return r.status === 200 ? (JSON.parse(r.text) as View) : null;
    }),
    statesOf(async () => JSON.parse((((await client.readResource({ uri: 'chess-footprint://openings/white/peers' })).contents[0]) as { text: string }).text) as View),
  ]);
  await client.close().catch(() => undefined);
  const charged = Math.round(before - scoutLevel(s));
  const lv = level as View['level'];
  return { level: lv, charged, positions, summary: `P's level ${lv ? `${lv.ratings.join(',')} ${lv.timeClass}` : 'none'}, ${positions} positions; REST ${rest}, stdio ${stdio}; ${charged} scout unit${charged === 1 ? '' : 's'} charged (both processes)` };
}

/** P's `scout` bucket now (limiter.ts's level: tokens plus the refill since), read-only from limits.sqlite. */
function scoutLevel(s: Sweep): number {
  const file = join(s.dir, LIMITS_FILE);
  // No file yet: nothing was ever charged, every bucket full.
  if (!existsSync(file)) return SCOUT_LIMIT;
  const db = new Database(file, { readonly: true, fileMustExist: true });
  try {
    const row = db.prepare('SELECT tokens, updated_at_ms AS at FROM rate_buckets WHERE key = ?').get(`scout:${s.p.id}`) as { tokens: number; at: number } | undefined;
    return row ? Math.min(SCOUT_LIMIT, row.tokens + ((Date.now() - row.at) / 1000) * (SCOUT_LIMIT / SCOUT_WINDOW_S)) : SCOUT_LIMIT;
  } finally {
    db.close();
  }
}

/**
 * Item 11: `chess-footprint mcp` over stdio (the shipped CLI, P's token) reads a lichess player whose export the fake
 * holds, and is SIGKILLed while that request is in flight; then the served process reads the same player (MCP over
 * HTTP) until its scout ends. The fake lichess export is test/fixtures/prep/rivalx.ndjson, dates moved to today's.
 */
async function scoutKilled(s: Sweep, server: SweptServer, fake: Awaited<ReturnType<typeof startFixtureServer>>, t: Tally): Promise<string> {
  const shift = Date.now() - Date.parse('2026-11-28T00:00:00Z');
  const games = readFileSync(new URL('../fixtures/prep/rivalx.ndjson', import.meta.url), 'utf8')
    .split('\n')
    .filter((l) => l.trim())
    .map((l) => JSON.parse(l) as { createdAt: number });
  let exports = 0;
  let letFirstGo = () => {};
  const firstHeld = new Promise<void>((r) => (letFirstGo = r));
  fake.route('prefix:/api/games/user/', async (_req, res, url) => {
    exports += 1;
    if (exports === 1) await firstHeld;
    const since = Number(url.searchParams.get('since') ?? 0);
    res.writeHead(200, { 'content-type': 'application/x-ndjson' });
    for (const g of games) if (g.createdAt + shift >= since) res.write(`${JSON.stringify({ ...g, createdAt: g.createdAt + shift })}\n`);
    res.end();
  });
  const uri = 'chess-footprint://players/siteB/RivalX';
  const scoutOf = (read: Awaited<ReturnType<Client['readResource']>>) => (JSON.parse((read.contents[0] as { text: string }).text) as { scout: { state: string; message: string | null; games: number } }).scout;
  const before = scoutLevel(s);
  const { client: viaStdio, transport: stdio } = stdioMcp(s, fake.url);
  await viaStdio.connect(stdio);
  const first = scoutOf(await viaStdio.readResource({ uri }));
  for (let i = 0; i < 200 && exports < 1; i += 1) await new Promise((r) => setTimeout(r, 50));
  const reaped = await killAndReap(stdio.pid!);
  letFirstGo();
  await viaStdio.close().catch(() => undefined);
  // The served process, MCP over HTTP with P's token: each request it answers tallied.
  const http = new Client({ name: 'sweep-http', version: '0.0.0' });
  await http.connect(
    new StreamableHTTPClientTransport(new URL(`${server.url}/api/mcp`), {
      requestInit: { headers: { authorization: `Bearer ${s.p.token}` } },
      fetch: async (input, init) => {
        try {
          const res = await fetch(input, init);
          t.note(res.status);
          return res;
        } catch (err) {
          t.note((err as { cause?: { code?: string } }).cause?.code ?? 'error');
          throw err;
        }
      },
    }),
  );
  const seen: string[] = [];
  let scout = { state: '', message: null as string | null, games: 0 };
  const started = performance.now();
  for (let i = 0; i < 100; i += 1) {
    scout = scoutOf(await http.readResource({ uri }));
    if (seen.at(-1) !== scout.state) seen.push(scout.state);
    if (scout.state === 'ok' || scout.state === 'error') break;
    await new Promise((r) => setTimeout(r, 200));
  }
  await http.close();
  const db = readStore(s.dir);
  const stored = db.prepare("SELECT count(*) AS n FROM scout_games g JOIN scouts x ON x.id = g.scout_id WHERE x.user_id = ? AND lower(x.username) = 'rivalx'").get(s.p.id) as { n: number };
  const leases = db.prepare('SELECT count(*) AS n FROM scout_lease').get() as { n: number };
  db.close();
  if (!reaped || scout.state !== 'ok' || first.state === 'ok') t.undocumented += 1;
  return `item 11: \`mcp\` over stdio read ${uri}: ${first.state}; its export request held by the fake lichess (${exports >= 1 ? 'in flight' : 'NOT seen'}), the process SIGKILLed (${reaped ? 'gone' : 'STILL RUNNING'}). The served process then read it over MCP (HTTP) until the scout ended: states ${seen.join(' → ')} in ${Math.round(performance.now() - started)} ms, final ${scout.state} with ${scout.games} games${scout.message ? ` ("${scout.message}")` : ''}; lichess export requests in all: ${exports}; scout_games stored for the player: ${stored.n}; scout leases left: ${leases.n}; scout units charged (both processes): ${Math.round(before - scoutLevel(s))}.`;
}

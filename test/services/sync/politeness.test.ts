import type { IncomingMessage, ServerResponse } from 'node:http';
import { eq } from 'drizzle-orm';
import { afterEach, describe, expect, it } from 'vitest';
import { connectSource } from '../../../src/services/sync/connections.js';
import { syncConnection } from '../../../src/services/sync/index.js';
import { connections, games, puzzleAttempts, ratingPoints } from '../../../src/store/schema/index.js';
import { makeTestApp, type TestApp } from '../../helpers/app.js';
import { startFixtureServer, type FixtureServer } from '../../helpers/fixtureServer.js';
import { fixture, fixtureLines, playChesscom, playEcf, playLichess } from './sourceFixtures.js';

/**
 * Every kind of request every sync makes, answered 429 or stalled by a local fixture server: each is
 * waited for and repeated (the sync ends as if nothing had happened), a source that keeps refusing
 * ends its own sync cleanly, and a stalled stream resumes from the cursor like a cut one.
 */

let server: FixtureServer;
let app: TestApp;
afterEach(async () => {
  await app?.close();
  await server?.close();
});

type Provider = 'siteA' | 'siteB' | 'fed';
interface Kind {
  name: string;
  provider: Provider;
  /** Matches path + query of the request. */
  match: RegExp;
  /** The least wait after a 429 without Retry-After: lichess asks for a minute; others back off from 5 s. */
  bareWaitMs: number;
}

const KINDS: Kind[] = [
  { name: 'lichess games export', provider: 'siteB', match: /^\/api\/games\/user\//, bareWaitMs: 60_000 },
  { name: 'lichess rating history', provider: 'siteB', match: /^\/api\/user\/[^/]+\/rating-history/, bareWaitMs: 60_000 },
  { name: 'lichess current perfs', provider: 'siteB', match: /^\/api\/user\/[^/?]+$/, bareWaitMs: 60_000 },
  { name: 'lichess puzzle activity', provider: 'siteB', match: /^\/api\/puzzle\/activity/, bareWaitMs: 60_000 },
  { name: 'chess.com archives', provider: 'siteA', match: /\/games\/archives$/, bareWaitMs: 5_000 },
  { name: 'chess.com month archive', provider: 'siteA', match: /\/games\/2025\/02$/, bareWaitMs: 5_000 },
  { name: 'chess.com stats', provider: 'siteA', match: /\/stats$/, bareWaitMs: 5_000 },
  { name: 'ECF games', provider: 'fed', match: /v2\/games\/Rapid\//, bareWaitMs: 5_000 },
  { name: 'ECF ratings', provider: 'fed', match: /v2\/ratings\/S\/998877\/2025-04-01/, bareWaitMs: 5_000 },
];

const ACCOUNT: Record<Provider, string> = { siteA: 'PawnStormPilot', siteB: 'RookRanger42', fed: '998877C' };

async function setup(env: Record<string, string> = {}) {
  server = await startFixtureServer();
  playLichess(server, { lines: fixtureLines('lichess/games_user_export.ndjson') });
  playChesscom(server, { '2025/01': fixture('chesscom/games_2025_01.json'), '2025/02': fixture('chesscom/games_2025_02.json'), '2025/03': fixture('chesscom/games_2025_03.json') });
  playEcf(server, {
    'v2/games/Standard/player/998877/': fixture('ecf/player_games_standard.json'),
    'v2/games/Rapid/player/998877/': fixture('ecf/player_games_rapid.json'),
    'v2/games/Blitz/player/998877/': fixture('ecf/player_games_blitz.json'),
    'v2/ratings/S/998877/2025-04-01': fixture('ecf/player_rating_S_2025-04-01.json'),
  });
  app = makeTestApp({
    now: '2025-04-10T09:00:00Z',
    env: {
      CFP_LICHESS_URL: server.url,
      CFP_CHESSCOM_URL: server.url,
      CFP_ECF_URL: server.url,
      CFP_SOURCE_MAX_RETRIES: '2',
      CFP_SOURCE_CONNECT_TIMEOUT_MS: '300',
      CFP_SOURCE_IDLE_TIMEOUT_MS: '1000',
      ...env,
    },
  });
}

/** Syncs a fresh account's connection to `provider`; returns the summary, the waits it asked for, and what it stored. */
async function syncFresh(provider: Provider) {
  const { user } = app.addUser();
  const conn = connectSource(app.deps, user.id, provider, ACCOUNT[provider], provider === 'siteB' ? 'lip_test' : undefined);
  const waits: number[] = [];
  const summary = await syncConnection(app.deps, conn, { sleep: async (ms) => void waits.push(ms), batchSize: 2 });
  const db = app.deps.store.db;
  const stored = {
    games: db.select({ s: games.sourceId }).from(games).where(eq(games.userId, user.id)).all().map((g) => g.s).sort(),
    ratingPoints: db.select().from(ratingPoints).where(eq(ratingPoints.userId, user.id)).all().length,
    puzzles: db.select().from(puzzleAttempts).where(eq(puzzleAttempts.userId, user.id)).all().length,
    details: db.select({ d: connections.details }).from(connections).where(eq(connections.id, conn.id)).get()!.d,
  };
  const row = db.select().from(connections).where(eq(connections.id, conn.id)).get()!;
  return { summary, waits, stored, row };
}

/** Answers the first `times` requests of `kind` with `misbehave`; the rest go to the source as normal. */
function misbehaveOn(kind: Kind, times: number, misbehave: (req: IncomingMessage, res: ServerResponse) => void) {
  const seen: string[] = [];
  server.intercept((req, res, url) => {
    if (!kind.match.test(url.pathname + url.search)) return false;
    seen.push(url.pathname + url.search);
    if (seen.length > times) return false;
    misbehave(req, res);
    return true;
  });
  return seen;
}

const refuse = (retryAfter?: string) => (_req: IncomingMessage, res: ServerResponse) =>
  void res.writeHead(429, { 'content-type': 'application/json', ...(retryAfter ? { 'retry-after': retryAfter } : {}) }).end('{"error":"Too many requests"}');
/** Headers and the start of a body, then silence (the connection stays open). */
const stallInBody = (_req: IncomingMessage, res: ServerResponse) => {
  res.writeHead(200, { 'content-type': 'application/json' });
  res.write('[');
};
/** Nothing at all: not even headers. */
const stallBeforeHeaders = () => undefined;

describe.each(KINDS)('$name', (kind) => {
  it('429 with Retry-After: waits at least that long (never under the source minimum), repeats the request, and stores what a clean sync stores', async () => {
    await setup();
    const clean = await syncFresh(kind.provider);
    expect(clean.summary.error).toBeNull();
    const seen = misbehaveOn(kind, 1, refuse('7'));
    const polite = await syncFresh(kind.provider);
    expect(polite.summary.error).toBeNull();
    expect(polite.row.status).toBe('ok');
    expect(seen).toHaveLength(2); // refused once, then repeated
    expect(polite.waits).toEqual([Math.max(7_000, kind.bareWaitMs)]);
    expect(polite.stored).toEqual({ ...clean.stored, details: polite.stored.details });
    expect(polite.summary.notes.join('; ')).toMatch(/answered 429: waited and repeated/);
  });

  it('429 without Retry-After: waits the source minimum (lichess: a full minute)', async () => {
    await setup();
    misbehaveOn(kind, 1, refuse());
    const polite = await syncFresh(kind.provider);
    expect(polite.summary.error).toBeNull();
    expect(polite.waits).toEqual([kind.bareWaitMs]);
  });

  it('a stall inside the body and a stall before any header are both repeated, and the result is whole', async () => {
    await setup();
    const clean = await syncFresh(kind.provider);
    let n = 0;
    const seen = misbehaveOn(kind, 2, (req, res) => (n++ === 0 ? stallInBody(req, res) : stallBeforeHeaders()));
    const polite = await syncFresh(kind.provider);
    expect(polite.summary.error).toBeNull();
    expect(seen).toHaveLength(3);
    expect(polite.stored).toEqual({ ...clean.stored, details: polite.stored.details });
    expect(polite.summary.notes.join('; ')).toMatch(/stalled/);
  });

  it('a source that keeps refusing ends its own sync cleanly: bounded repeats, a message saying so, nothing half-written', async () => {
    await setup();
    const seen = misbehaveOn(kind, Infinity, refuse('1'));
    const r = await syncFresh(kind.provider);
    expect(r.summary.ok).toBe(false);
    expect(seen).toHaveLength(3); // the request and CFP_SOURCE_MAX_RETRIES=2 repeats
    expect(r.row.status).toBe('error');
    expect(r.row.statusMessage).toMatch(/kept rate-limiting the sync; what was stored stays and the next sync resumes from there/);
  });
});

describe('lichess games export, cut and refused part-way', () => {
  // Oldest first, as the export is asked for: q3Rk7TzA, Xm8dPq2L, b7NwK1sE, …
  const FIVE = fixtureLines('lichess/games_user_export.ndjson').sort((a, b) => JSON.parse(a).createdAt - JSON.parse(b).createdAt);

  it('a stream that stalls after two games resumes from the cursor like a cut one: no gap, no duplicate', async () => {
    await setup();
    let n = 0;
    server.intercept((_req, res, url) => {
      if (!url.pathname.startsWith('/api/games/user/') || n++ > 0) return false;
      res.writeHead(200, { 'content-type': 'application/x-ndjson' });
      res.write(FIVE[0] + '\n' + FIVE[1] + '\n'); // then silence
      return true;
    });
    const r = await syncFresh('siteB');
    expect(r.summary.error).toBeNull();
    expect(r.stored.games).toEqual(['Fh4sW0eY', 'T2vLa9Hc', 'Xm8dPq2L', 'b7NwK1sE', 'q3Rk7TzA']);
    expect(r.summary.notes.join('; ')).toContain('the lichess stream was stalled: resumed from the last stored game');
    const exports = server.requests.filter((q) => q.path.startsWith('/api/games/user/'));
    // The resume asked from the second game's createdAt (inclusive: Xm8dPq2L, 1741530622981).
    expect(new URL(exports.at(-1)!.path, 'http://x').searchParams.get('since')).toBe('1741530622981');
  });

  it('kept refusing after a cut: the sync ends with the cursor at the last whole batch, and the next sync completes it', async () => {
    await setup();
    let n = 0;
    server.intercept((_req, res, url) => {
      if (!url.pathname.startsWith('/api/games/user/')) return false;
      if (n++ === 0) {
        res.writeHead(200, { 'content-type': 'application/x-ndjson' });
        res.write(FIVE[0] + '\n' + FIVE[1] + '\n' + FIVE[2].slice(0, 30));
        setTimeout(() => res.socket?.destroy(), 20);
        return true;
      }
      res.writeHead(429).end();
      return true;
    });
    const first = await syncFresh('siteB');
    expect(first.summary.ok).toBe(false);
    expect(first.stored.games).toEqual(['Xm8dPq2L', 'q3Rk7TzA']);
    expect(JSON.parse(first.row.cursor).since).toBe(1741530622981);
    expect(first.waits.filter((w) => w === 60_000)).toHaveLength(2); // two repeats, each after a minute

    server.intercept(null);
    const second = await syncConnection(app.deps, first.row, { sleep: async () => undefined });
    expect(second.error).toBeNull();
    expect(second.stored).toBe(3);
    const ids = app.deps.store.db.select({ s: games.sourceId }).from(games).where(eq(games.userId, first.row.userId)).all().map((g) => g.s).sort();
    expect(ids).toEqual(['Fh4sW0eY', 'T2vLa9Hc', 'Xm8dPq2L', 'b7NwK1sE', 'q3Rk7TzA']);
  });

  it('a Retry-After longer than the longest honoured wait stops at once instead of sleeping for it', async () => {
    await setup({ CFP_SOURCE_MAX_RETRY_AFTER_SECONDS: '600' });
    const seen = misbehaveOn(KINDS[1], Infinity, refuse('3600'));
    const r = await syncFresh('siteB');
    expect(r.summary.ok).toBe(false);
    expect(seen).toHaveLength(1);
    expect(r.waits).toEqual([]);
  });
});

it('lichess current perfs land in the profile connection details (user_public.json: blitz 1724, rd 52, prog 14, 1288 games)', async () => {
  await setup();
  const r = await syncFresh('siteB');
  const details = JSON.parse(r.stored.details!);
  expect(details.fetchedAt).toBe('2025-04-10T09:00:00.000Z');
  expect(details.perfs.blitz).toEqual({ rating: 1724, rd: 52, games: 1288, prog: 14, provisional: false });
  expect(details.perfs.correspondence).toEqual({ rating: 1500, rd: 500, games: 0, prog: 0, provisional: true });
  expect(details.perfs.puzzle).toEqual({ rating: 1863, rd: 64, games: 2104, prog: 22, provisional: false });
  // storm / racer / streak are {runs, score}, not ratings.
  expect(Object.keys(details.perfs).sort()).toEqual(['blitz', 'bullet', 'chess960', 'classical', 'correspondence', 'puzzle', 'rapid']);
});

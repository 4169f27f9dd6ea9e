import { createHash } from 'node:crypto';
import { and, eq } from 'drizzle-orm';
import { afterEach, describe, expect, it } from 'vitest';
import { connectSource } from '../../../src/services/sync/connections.js';
import { syncConnection, syncUser } from '../../../src/services/sync/index.js';
import { connections, games, pgns, puzzleAttempts, ratingPoints } from '../../../src/store/schema/index.js';
import { makeTestApp, type TestApp } from '../../helpers/app.js';
import { startFixtureServer, type FixtureServer } from '../../helpers/fixtureServer.js';
import { fixtureLines, playLichess } from './sourceFixtures.js';

const FIVE = fixtureLines('lichess/games_user_export.ndjson');
const EXTRA = fixtureLines('lichess/extra_games.ndjson'); // a chess960 game and an aborted game

let server: FixtureServer;
let app: TestApp;
afterEach(async () => {
  await app?.close();
  await server?.close();
});

async function setup(token?: string) {
  server = await startFixtureServer();
  app = makeTestApp({ env: { CFP_LICHESS_URL: server.url } });
  const { user } = app.addUser('Rowan Ranger');
  const conn = connectSource(app.deps, user.id, 'siteB', 'RookRanger42', token);
  return { user, conn };
}

const rowsOf = (userId: string) => app.deps.store.db.select().from(games).where(eq(games.userId, userId)).orderBy(games.playedAt).all();

describe('lichess sync', () => {
  it('stores each finished standard game field by field, skips variants and aborted games, and records rating history', async () => {
    const { user, conn } = await setup();
    playLichess(server, { lines: [...FIVE, ...EXTRA] });
    const s = await syncConnection(app.deps, conn);
    expect(s.error).toBeNull();
    expect(s.fetched).toBe(7);
    expect(s.stored).toBe(5);
    expect(s.skipped).toEqual({ variant: 1, aborted: 1 });

    // The export was asked oldest first with every off-by-default flag on.
    const q = new URL(server.requests.find((r) => r.path.startsWith('/api/games/user/'))!.path, 'http://x').searchParams;
    for (const flag of ['clocks', 'evals', 'opening', 'accuracy', 'pgnInJson']) expect(q.get(flag)).toBe('true');
    expect(q.get('sort')).toBe('dateAsc');
    expect(server.requests[0].headers['accept']).toBe('application/x-ndjson');

    const rows = rowsOf(user.id);
    expect(rows.map((r) => r.sourceId)).toEqual(['q3Rk7TzA', 'Xm8dPq2L', 'b7NwK1sE', 'T2vLa9Hc', 'Fh4sW0eY']);
    const xm = rows[1];
    // Xm8dPq2L: Knightfall_77 (1790) vs RookRanger42 (1811, +7), black wins by resignation, 10+0 rapid, 28 plies.
    expect(xm).toMatchObject({
      provider: 'siteB',
      playedAt: '2025-03-09T14:30:22.981Z', // createdAt 1741530622981 ms
      colour: 'black',
      result: 'win',
      opponent: 'Knightfall_77',
      opponentRating: 1790,
      userRating: 1811,
      ratingDelta: 7,
      timeClass: 'rapid',
      timeControl: '600+0',
      rated: true,
      eco: 'D51',
      opening: "Queen's Gambit Declined: Modern Variation, Knight Defense",
      event: null,
      movesCount: 14,
      platformAccuracy: 98,
      reviewAccuracy: null,
      sourceUrl: 'https://lichess.org/Xm8dPq2L/black',
      movesSource: 'pgn',
      sanMoves: 'd4 d5 c4 e6 Nc3 Nf6 Bg5 Nbd7 cxd5 exd5 Nxd5 Nxd5 Bxd8 Bb4+ Qd2 Bxd2+ Kxd2 Kxd8 e3 N7b6 Nf3 Be6 Bd3 Ke7 Rhc1 c6 a3 f6',
    });
    // Clocks are the JSON centiseconds / 100: 60000 → 600, 59036 → 590.36, last 36509 → 365.09.
    const clocks = JSON.parse(xm.clocks!) as number[];
    expect(clocks).toHaveLength(28);
    expect(clocks.slice(0, 3)).toEqual([600, 600, 590.36]);
    expect(clocks[27]).toBe(365.09);
    // The stored PGN keeps the server evals (ply 11, Nxd5, is -355 cp = -3.55) and is content-addressed.
    const pgn = app.deps.store.db.select().from(pgns).where(eq(pgns.hash, xm.pgnHash!)).get()!;
    expect(createHash('sha256').update(pgn.text).digest('hex')).toBe(xm.pgnHash);
    expect(pgn.text).toContain('6. Nxd5 { [%eval -3.55] [%clk 0:08:40] }');
    expect(pgn.text).not.toContain('Xm8dPq2Lc4Hn'); // fullId is player-specific and never kept

    // T2vLa9Hc: casual classical, no winner → draw, no ratingDiff → delta null, 16 moves.
    expect(rows[3]).toMatchObject({ colour: 'black', result: 'draw', opponent: 'EndgameElla', opponentRating: 1955, userRating: 1904, ratingDelta: null, rated: false, timeClass: 'classical', timeControl: '1800+0', movesCount: 16, platformAccuracy: null });
    // b7NwK1sE: outoftime with a winner (black) → a loss for white RookRanger42; 13 full moves.
    expect(rows[2]).toMatchObject({ colour: 'white', result: 'loss', ratingDelta: -5, timeClass: 'bullet', movesCount: 13, opponent: 'ZugzwangZoe' });
    // Fh4sW0eY crosses the UK DST change: stored in UTC, 00:53:40.204Z on 30 March.
    expect(rows[4]).toMatchObject({ playedAt: '2025-03-30T00:53:40.204Z', result: 'win', colour: 'white', ratingDelta: 6, movesCount: 7, timeControl: '900+10' });

    // Rating history: months are 0-based, [2025, 2, 30, 1824] is 30 March; variant perfs are left out.
    const pts = app.deps.store.db.select().from(ratingPoints).where(eq(ratingPoints.userId, user.id)).all();
    expect(pts).toContainEqual(expect.objectContaining({ provider: 'siteB', series: 'rapid', date: '2025-03-30', rating: 1824 }));
    expect(pts).toContainEqual(expect.objectContaining({ series: 'puzzle', date: '2025-03-29', rating: 1863 }));
    expect(pts).toContainEqual(expect.objectContaining({ series: 'bullet', date: '2024-11-03', rating: 1702 }));
    // 3 bullet + 3 blitz + 3 rapid + 1 classical + 4 puzzles; Chess960 is a variant.
    expect(pts).toHaveLength(14);

    const c = app.deps.store.db.select().from(connections).where(eq(connections.id, conn.id)).get()!;
    expect(c.status).toBe('ok');
    expect(c.lastSyncedAt).toBe('2026-11-20T12:00:00.000Z');
    // The cursor is the newest createdAt seen (Fh4sW0eY).
    expect(JSON.parse(c.cursor).since).toBe(1743296020204);
  });

  it('a second sync asks only from the newest stored game and never duplicates', async () => {
    const { user, conn } = await setup();
    const play = playLichess(server, { lines: FIVE.slice(1) });
    await syncConnection(app.deps, conn);
    play.exportRequests.length = 0;
    // A new game arrives (Fh4sW0eY, the newest); lichess answers oldest first from `since`.
    server.route('prefix:/api/games/user/', async (_req, res, url) => {
      play.exportRequests.push(url);
      const since = Number(url.searchParams.get('since'));
      res.writeHead(200);
      for (const l of [...FIVE].reverse()) if (JSON.parse(l).createdAt >= since) res.write(l + '\n');
      res.end();
    });
    const conn2 = app.deps.store.db.select().from(connections).where(eq(connections.id, conn.id)).get()!;
    const s = await syncConnection(app.deps, conn2);
    // since = createdAt of T2vLa9Hc (newest of the first four), inclusive: it comes back and is skipped as a duplicate.
    expect(play.exportRequests[0].searchParams.get('since')).toBe('1742670003555');
    expect(s.fetched).toBe(2);
    expect(s.stored).toBe(1);
    expect(s.skipped).toEqual({ duplicate: 1 });
    expect(rowsOf(user.id)).toHaveLength(5);
  });

  it('comes back for a game that was still in progress (correspondence) until it has finished', async () => {
    const { user, conn } = await setup();
    // Xm8dPq2L still being played at the first sync.
    const playing = JSON.parse(FIVE[3]);
    playing.status = 'started';
    delete playing.winner;
    const lines = [FIVE[4], JSON.stringify(playing), FIVE[2]];
    const play = playLichess(server, { lines });
    const s1 = await syncConnection(app.deps, conn);
    expect(play.exportRequests[0].searchParams.get('ongoing')).toBe('true');
    expect(s1.skipped).toEqual({ unfinished: 1 });
    const cursor1 = JSON.parse(app.deps.store.db.select().from(connections).where(eq(connections.id, conn.id)).get()!.cursor);
    expect(cursor1).toMatchObject({ since: 1742026365130, ongoingFrom: 1741530622981 });
    // It has finished by the second sync: the export starts from its creation, not from the newest game.
    lines[1] = FIVE[3];
    const s2 = await syncConnection(app.deps, app.deps.store.db.select().from(connections).where(eq(connections.id, conn.id)).get()!);
    expect(play.exportRequests[1].searchParams.get('since')).toBe('1741530622981');
    expect(s2.stored).toBe(1);
    expect(rowsOf(user.id).map((r) => r.sourceId)).toEqual(['q3Rk7TzA', 'Xm8dPq2L', 'b7NwK1sE']);
    const cursor2 = JSON.parse(app.deps.store.db.select().from(connections).where(eq(connections.id, conn.id)).get()!.cursor);
    expect(cursor2.ongoingFrom).toBeUndefined();
    expect(cursor2.since).toBe(1742026365130);
  });

  it('resumes a stream cut mid-line, and waits 60 s after a 429, without gaps or duplicates', async () => {
    const { user, conn } = await setup();
    const waits: number[] = [];
    playLichess(server, {
      lines: FIVE,
      override: (n, res, served) => {
        if (n === 0) {
          // Two whole games, then half a line, then the connection drops.
          res.writeHead(200, { 'content-type': 'application/x-ndjson' });
          res.write(served[0] + '\n' + served[1] + '\n' + served[2].slice(0, 40));
          setTimeout(() => res.socket?.destroy(), 20);
          return true;
        }
        if (n === 1) {
          res.writeHead(429).end();
          return true;
        }
        return false;
      },
    });
    const s = await syncConnection(app.deps, conn, { sleep: async (ms) => void waits.push(ms), batchSize: 1 });
    expect(s.error).toBeNull();
    expect(waits).toEqual([60_000]);
    const ids = rowsOf(user.id).map((r) => r.sourceId);
    expect(ids).toEqual(['q3Rk7TzA', 'Xm8dPq2L', 'b7NwK1sE', 'T2vLa9Hc', 'Fh4sW0eY']);
    // Third request resumed from the second game's createdAt (Xm8dPq2L), inclusive.
    const exports = server.requests.filter((r) => r.path.startsWith('/api/games/user/'));
    expect(exports).toHaveLength(3);
    expect(new URL(exports[2].path, 'http://x').searchParams.get('since')).toBe('1741530622981');
  });

  it('a malformed game fails the connection loudly, keeps the whole games before it, and other sources still sync', async () => {
    const { user, conn } = await setup();
    const bad = JSON.parse(FIVE[2]);
    delete bad.players;
    playLichess(server, { lines: [FIVE[3], FIVE[4], JSON.stringify(bad)] });
    server.route('/v2/new/api.php', (_req, res) => void res.writeHead(200).end('{"games":[],"success":true}'));
    connectSource(app.deps, user.id, 'fed', '998877C');
    // Point ECF at the same fixture server.
    app.deps.config.sources.ecfUrl = server.url;
    const all = await syncUser(app.deps, user.id, { batchSize: 1 });
    const li = all.find((s) => s.provider === 'siteB')!;
    expect(li.ok).toBe(false);
    expect(li.error).toBe('lichess sent data that did not parse: lichess game b7NwK1sE: players: Invalid input: expected object, received undefined');
    expect(all.find((s) => s.provider === 'fed')!.ok).toBe(true);
    const c = app.deps.store.db.select().from(connections).where(eq(connections.id, conn.id)).get()!;
    expect(c.status).toBe('error');
    expect(c.statusMessage).toContain('players');
    expect(c.lastSyncedAt).toBeNull();
    expect(rowsOf(user.id).map((r) => r.sourceId)).toEqual(['q3Rk7TzA', 'Xm8dPq2L']);
  });

  it('with a token, stores puzzle activity (the puzzle rating is the puzzle’s, not the player’s)', async () => {
    const { user, conn } = await setup('lip_test');
    playLichess(server, { lines: [] });
    const s = await syncConnection(app.deps, conn);
    expect(s.puzzleAttempts).toBe(4);
    const rows = app.deps.store.db.select().from(puzzleAttempts).where(and(eq(puzzleAttempts.userId, user.id), eq(puzzleAttempts.puzzleId, 'Bn3vD'))).all();
    // {"date":1743279107902,"win":false,... "rating":1935}
    expect(rows).toEqual([expect.objectContaining({ provider: 'siteB', attemptedAt: '2025-03-29T20:11:47.902Z', win: false, puzzleRating: 1935 })]);
    expect(server.requests.find((r) => r.path.startsWith('/api/puzzle/activity'))!.headers.authorization).toBe('Bearer lip_test');
  });
});

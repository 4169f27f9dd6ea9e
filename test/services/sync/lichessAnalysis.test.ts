import { eq } from 'drizzle-orm';
import { afterEach, describe, expect, it } from 'vitest';
import { connectSource } from '../../../src/services/sync/connections.js';
import { engineOutput, ownerReview } from '../../../src/services/review/records.js';
import { syncConnection } from '../../../src/services/sync/index.js';
import { games, reviewJobs } from '../../../src/store/schema/index.js';
import { getCriticalMoments } from '../../../tools/analysis/get_critical_moments.js';
import { getGameAnalysis } from '../../../tools/analysis/get_game_analysis.js';
import { getGame } from '../../../tools/games/get_game.js';
import { requestGameReview } from '../../../tools/games/request_game_review.js';
import { makeTestApp, type TestApp } from '../../helpers/app.js';
import { startFixtureServer, type FixtureServer } from '../../helpers/fixtureServer.js';
import { fixtureLines, playLichess } from './sourceFixtures.js';

// Three real exports with lichess's server analysis (fixtures/sources/lichess-analysed/README.md): a resignation with
// the owner White, a mate with the owner Black, and a 140-ply draw.
const LINES = fixtureLines('lichess-analysed/games.ndjson');
const PICKED = ['qcnQ0NVw', LINES.map((l) => JSON.parse(l)).find((g) => g.status === 'mate' && g.players.black.user.id === 'megaloblasto').id, LINES.map((l) => JSON.parse(l)).find((g) => g.status === 'draw').id];
const SERVED = LINES.filter((l) => PICKED.includes(JSON.parse(l).id));

let server: FixtureServer;
let app: TestApp;
afterEach(async () => {
  await app?.close();
  await server?.close();
});

/**
 * The first `damaged.length` of `picked` were stored review-less (and the engine may review them: the request is queued,
 * not "already reviewed"); the rest keep lichess's review.
 */
async function expectReviewLess(app: TestApp, me: ReturnType<TestApp['addUser']>, picked: ReadonlyArray<{ id: string }>, damaged: readonly string[]): Promise<void> {
  for (const [i, g] of picked.entries()) {
    const row = app.deps.store.db.select().from(games).where(eq(games.sourceId, g.id)).get()!;
    const review = ownerReview(app.deps.store, me.user.id, row.movesKey);
    if (i < damaged.length) {
      expect(review, damaged[i]).toBeNull();
      expect(row.reviewAccuracy, damaged[i]).toBeNull();
      const r = await app.call(requestGameReview, { id: row.id }, me.token);
      expect(r.status, damaged[i]).toBe(202);
    } else expect(review, 'an untouched game').toBeTruthy();
  }
}

describe('lichess sync of games lichess analysed', () => {
  it("stores lichess's review with each game, in the sync, with lichess's judgments and figures, and starts no engine", async () => {
    server = await startFixtureServer();
    // An engine path that cannot start: any review that needed our engine would fail.
    app = makeTestApp({ env: { CFP_LICHESS_URL: server.url, CFP_STOCKFISH: '/nonexistent/stockfish' } });
    const me = app.addUser('Megaloblasto');
    const conn = connectSource(app.deps, me.user.id, 'siteB', 'megaloblasto');
    playLichess(server, { lines: SERVED });
    const s = await syncConnection(app.deps, conn);
    expect(s.error).toBeNull();
    expect(s.stored).toBe(3);

    const rows = app.deps.store.db.select().from(games).where(eq(games.userId, me.user.id)).all();
    expect(rows).toHaveLength(3);
    for (const row of rows) {
      const g = JSON.parse(SERVED.find((l) => JSON.parse(l).id === row.sourceId)!);
      const review = ownerReview(app.deps.store, me.user.id, row.movesKey)!;
      expect(review, row.sourceId).toBeTruthy();
      expect(review.engine).toBe('lichess server analysis');
      expect(review.nodesPerPosition).toBe(0);
      // The game carries lichess's accuracy for the owner twice: as the platform's figure and as its review's.
      expect(row.platformAccuracy).toBe(g.players[row.colour].analysis.accuracy);
      expect(Math.round(row.reviewAccuracy!)).toBe(g.players[row.colour].analysis.accuracy);

      const a = await app.call(getGameAnalysis, { id: row.id, limit: 120 }, me.token);
      expect(a.status).toBe(200);
      const body = a.body as { provenance: { source: string; engineVersion: string }; plies: Array<{ judgment: string | null; classification: string }>; pagination: { totalPlies: number } };
      expect(body.provenance.source).toMatch(/^lichess's own server analysis/);
      expect(body.provenance.engineVersion).toBe('lichess server analysis');
      expect(body.plies.map((p) => p.judgment)).toEqual(body.plies.map((_, i) => g.analysis[i]?.judgment?.name.toLowerCase() ?? null));

      const m = await app.call(getCriticalMoments, { id: row.id }, me.token);
      const moments = (m.body as { moments: Array<{ ply: number; judgment: string | null }> }).moments;
      expect(moments.length).toBeGreaterThan(0);
      for (const x of moments) expect(x.judgment).toBe(g.analysis[x.ply - 1]?.judgment?.name.toLowerCase() ?? null);

      // A later request_game_review answers with this review at once: nothing is queued, no engine starts.
      const r = await app.call(requestGameReview, { id: row.id }, me.token);
      expect(r.status).toBe(200);
      expect(r.body).toMatchObject({ status: 'complete', alreadyReviewed: true });
    }
    expect(app.deps.store.db.select().from(reviewJobs).all()).toEqual([]);
  });
});

describe('lichess analysis that cannot be shown as lichess made it (issue 37, items 5, 6 and 8)', () => {
  const all = LINES.map((l) => JSON.parse(l) as { id: string; createdAt: number; analysis: unknown[]; players: Record<'white' | 'black', { analysis: { accuracy: number } }> });

  it("an empty, null, unknown or malformed entry (or analysis as an object) imports that game review-less; the sync goes on; the engine may review it", async () => {
    server = await startFixtureServer();
    app = makeTestApp({ env: { CFP_LICHESS_URL: server.url, CFP_STOCKFISH: '/nonexistent/stockfish' } });
    const me = app.addUser('Megaloblasto');
    const conn = connectSource(app.deps, me.user.id, 'siteB', 'megaloblasto');
    // Six different games (different moves: a review of the same moves would be the owner's already), oldest first;
    // the last is untouched and must still be stored after the five damaged ones.
    const picked = [...all].sort((a, b) => a.createdAt - b.createdAt).slice(0, 6);
    const damage: Array<[string, (g: (typeof all)[number]) => void]> = [
      ['no eval or mate in any entry', (g) => (g.analysis = g.analysis.map(() => ({})))],
      ['a null entry', (g) => (g.analysis = g.analysis.map((e, i) => (i === 2 ? null : e)))],
      ['a string eval', (g) => (g.analysis = g.analysis.map((e, i) => (i === 1 ? { eval: '34' } : e)))],
      ['analysis as an object', (g) => (g.analysis = { 0: { eval: 15 } } as unknown as unknown[])],
    ];
    // A judgment name lichess may add later is no fault: that game keeps lichess's review, the name kept as published.
    const renamed = damage.length;
    const served = picked.map((g, i) => {
      const copy = structuredClone(g);
      if (i < damage.length) damage[i][1](copy);
      if (i === renamed) copy.analysis = copy.analysis.map((e, j) => (j === 3 ? { ...(e as object), judgment: { name: 'Good' } } : e));
      return JSON.stringify(copy);
    });
    playLichess(server, { lines: served });
    const s = await syncConnection(app.deps, conn);
    expect(s.error).toBeNull();
    expect(s.stored).toBe(6);
    expect(app.deps.store.db.select().from(games).where(eq(games.userId, me.user.id)).all()).toHaveLength(6);
    await expectReviewLess(app, me, picked, damage.map(([name]) => name));
    for (const [i, g] of picked.entries()) {
      const row = app.deps.store.db.select().from(games).where(eq(games.sourceId, g.id)).get()!;
      if (i === renamed) {
        const source = engineOutput(app.deps.store, me.user.id, row.movesKey!)!.source!;
        expect(source.unknownJudgments).toEqual({ 3: 'Good' });
        expect(source.judgments[3]).toBeNull();
        expect(row.reviewAccuracy).not.toBeNull();
      }
    }
    expect(app.deps.store.db.select().from(reviewJobs).all()).toHaveLength(damage.length);
  });

  it("analysis outside lichess's own bounds imports that game review-less; the sync goes on (issue 44 item 8)", async () => {
    server = await startFixtureServer();
    app = makeTestApp({ env: { CFP_LICHESS_URL: server.url, CFP_STOCKFISH: '/nonexistent/stockfish' } });
    const me = app.addUser('Megaloblasto');
    const conn = connectSource(app.deps, me.user.id, 'siteB', 'megaloblasto');
    const picked = [...all].sort((a, b) => a.createdAt - b.createdAt).slice(0, 10);
    const firstBest = (g: (typeof all)[number]) => g.analysis.findIndex((e) => typeof (e as { best?: string }).best === 'string');
    const setEntry = (g: (typeof all)[number], i: number, patch: object) => (g.analysis = g.analysis.map((e, j) => (j === i ? { ...(e as object), ...patch } : e)));
    // Each bound from its source: accuracy is a percentage; Stockfish's VALUE_MATE is 32000 and MAX_PLY 246.
    const damage: Array<[string, (g: (typeof all)[number]) => void]> = [
      ['accuracy 1e308', (g) => (g.players.white.analysis.accuracy = 1e308)],
      ['accuracy −5', (g) => (g.players.black.analysis.accuracy = -5)],
      ['eval 1e15', (g) => setEntry(g, 4, { eval: 1e15, mate: undefined })],
      ['eval 32000 (VALUE_MATE itself)', (g) => setEntry(g, 4, { eval: -32000, mate: undefined })],
      ['mate 1e9', (g) => setEntry(g, 5, { mate: 1e9, eval: undefined })],
      ['mate 247 (past MAX_PLY)', (g) => setEntry(g, 5, { mate: 247, eval: undefined })],
      ['best "zzzz"', (g) => setEntry(g, firstBest(g), { best: 'zzzz' })],
      ['a 10 KB best', (g) => setEntry(g, firstBest(g), { best: 'e2e4'.repeat(2500) })],
      ['best well formed but illegal in its position', (g) => setEntry(g, firstBest(g), { best: 'a1a8' })],
    ];
    const served = picked.map((g, i) => {
      const copy = structuredClone(g);
      if (i < damage.length) damage[i][1](copy);
      return JSON.stringify(copy);
    });
    playLichess(server, { lines: served });
    const s = await syncConnection(app.deps, conn);
    expect(s.error).toBeNull();
    expect(s.stored).toBe(picked.length);
    await expectReviewLess(app, me, picked, damage.map(([name]) => name));
    // The out-of-range figure is never the game's platform accuracy either.
    const accuracies = app.deps.store.db.select({ a: games.platformAccuracy }).from(games).where(eq(games.userId, me.user.id)).all().map((r) => r.a);
    for (const a of accuracies) if (a !== null) expect(a >= 0 && a <= 100).toBe(true);
  });

  it("an imported review shows lichess's published accuracy for each side: all 80 players of the 40 exports", async () => {
    server = await startFixtureServer();
    app = makeTestApp({ env: { CFP_LICHESS_URL: server.url, CFP_STOCKFISH: '/nonexistent/stockfish' } });
    const me = app.addUser('Megaloblasto');
    const conn = connectSource(app.deps, me.user.id, 'siteB', 'megaloblasto');
    playLichess(server, { lines: LINES });
    expect((await syncConnection(app.deps, conn)).stored).toBe(40);
    let players = 0;
    for (const g of all) {
      const row = app.deps.store.db.select().from(games).where(eq(games.sourceId, g.id)).get()!;
      const res = await app.call(getGame, { id: row.id }, me.token);
      const review = (res.body as { review: { accuracyWhite: number; accuracyBlack: number } }).review;
      expect([review.accuracyWhite, review.accuracyBlack], g.id).toEqual([g.players.white.analysis.accuracy, g.players.black.analysis.accuracy]);
      players += 2;
    }
    expect(players).toBe(80);
  });
});

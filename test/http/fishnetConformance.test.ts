/**
 * Conformance of `/fishnet/` with lichess's fishnet protocol (issue 36). The client below is written from
 * fishnet's `doc/protocol.md` and `src/api.rs` alone (statuses, bodies, query parameters): it imports no
 * project code, drives the real CLI (`init`, `import`, `worker-key`, `serve --engines 0`) as separate processes,
 * analyses with a real engine (the bundled `stockfish` npm WASM build, run under node, spoken to over UCI) in
 * fishnet's order (backwards, chunks of at most 6 positions, `ucinewgame` per chunk), and submits. The stored
 * review is checked against lichess's published accuracy method (https://lichess.org/page/accuracy; lila
 * AccuracyPercent.scala and WinPercent.scala: the coefficients below), computed here from the evaluations the
 * client itself submitted.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Chess } from 'chess.js';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { openStore, storeFile } from '../../src/store/db.js';
import { cli, start } from '../helpers/cli.js';

const require = createRequire(import.meta.url);
const ENGINE = require.resolve('stockfish/bin/stockfish-19-lite-single.js');
const UA = 'fishnet-conformance/1.0 (test)';

// A short, quiet game: every evaluation a centipawn score, so the expected accuracy needs no mate rule.
const PGN = `[Event "Conformance"]
[Site "?"]
[Date "2026.11.01"]
[White "Ann"]
[Black "Bob"]
[Result "1/2-1/2"]

1. e4 e5 2. Nf3 Nc6 3. Bc4 Bc5 4. c3 Nf6 5. d3 d6 1/2-1/2

[Event "Conformance"]
[Site "?"]
[Date "2026.10.01"]
[White "Ann"]
[Black "Cid"]
[Result "1/2-1/2"]

1. d4 d5 1/2-1/2
`;
/** Milliseconds per position the server allows (CFP_WORKER_TIMEOUT_MS): the lease of a 3-position job is 3 × this. */
const TIMEOUT_MS = 3_000;

let dir: string;
let server: ChildProcess;
let base: string;
let token: string;
let key: string;
let gameId: string;
let shortGameId: string;

/** Dates a key's last refusal an hour back, so its wait before more work (issue 44) has passed. */
function backdateRefusals(name: string): void {
  const store = openStore(storeFile(join(dir, 'data')));
  try {
    store.sqlite.prepare('UPDATE worker_keys SET failed_at = ? WHERE name = ? AND revoked_at IS NULL').run(new Date(Date.now() - 3600_000).toISOString(), name);
  } finally {
    store.close();
  }
}

const auth = (k?: string) => ({ 'User-Agent': UA, ...(k ? { Authorization: `Bearer ${k}` } : {}), 'Content-Type': 'application/json' });
/**
 * A POST as a fishnet client makes it: a 503 (the server's store briefly busy) is asked again after its
 * Retry-After, as fishnet backs off on any failed request (src/api.rs); any other status is the answer.
 */
async function post(path: string, k: string | undefined, body: unknown = {}): Promise<Response> {
  for (let attempt = 1; ; attempt++) {
    const res = await fetch(base + path, { method: 'POST', headers: auth(k), body: typeof body === 'string' ? body : JSON.stringify(body) });
    if (res.status !== 503 || attempt === 10) return res;
    await new Promise((r) => setTimeout(r, 1000 * Number(res.headers.get('retry-after') ?? 1)));
  }
}

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'cfp-fishnet-'));
  const data = join(dir, 'data');
  token = (await cli(['init', '--name', 'Ann', '--email', 'ann@example.test', '--data-dir', data])).stdout.trim().split('\n').pop()!;
  writeFileSync(join(dir, 'game.pgn'), PGN);
  await cli(['import', join(dir, 'game.pgn'), '--as', 'Ann', '--data-dir', data]);
  key = (await cli(['worker-key', 'create', '--name', 'laptop', '--data-dir', data])).stdout.trim().split('\n').pop()!;
  const started = await start(['serve', '--engines', '0', '--port', '0', '--data-dir', data], /listening on (http:\/\/\S+)/, { CFP_WORKER_NODES: '20000', CFP_WORKER_TIMEOUT_MS: String(TIMEOUT_MS), CFP_RATE_LIMITS: 'off' });
  server = started.child;
  base = /listening on (http:\/\/\S+)/.exec(started.stdout())![1];
  const list = (await (await fetch(`${base}/api/v1/me/games?sort=date-desc`, { headers: auth(token) })).json()) as { games: Array<{ id: string }> };
  // Newest first: the ten-ply game (1 November), then the two-ply one (1 October).
  [gameId, shortGameId] = list.games.map((g) => g.id);
}, 120_000);

afterAll(() => {
  server?.kill('SIGKILL');
  rmSync(dir, { recursive: true, force: true });
});

/** A UCI engine process: `search` sends a position and `go nodes`, and answers the last `info` with a score and the PV. */
function uciEngine() {
  const child = spawn(process.execPath, [ENGINE], { stdio: ['pipe', 'pipe', 'ignore'] });
  let buffer = '';
  let waiter: ((line: string) => boolean) | null = null;
  child.stdout!.on('data', (d: Buffer) => {
    buffer += d.toString();
    let i;
    while ((i = buffer.indexOf('\n')) >= 0) {
      const line = buffer.slice(0, i).trim();
      buffer = buffer.slice(i + 1);
      if (waiter && waiter(line)) waiter = null;
    }
  });
  const send = (s: string) => child.stdin!.write(s + '\n');
  const until = (done: (line: string) => boolean) => new Promise<void>((resolve) => (waiter = (l) => (done(l) ? (resolve(), true) : false)));
  return {
    async ready() {
      send('uci');
      await until((l) => l === 'uciok');
      send('isready');
      await until((l) => l === 'readyok');
    },
    async newGame() {
      send('ucinewgame');
      send('isready');
      await until((l) => l === 'readyok');
    },
    async search(position: string, moves: string[], nodes: number) {
      let last: Record<string, unknown> = {};
      send(`position fen ${position}${moves.length ? ` moves ${moves.join(' ')}` : ''}`);
      send(`go nodes ${nodes}`);
      await until((l) => {
        if (l.startsWith('info ') && / score /.test(l) && !/ lowerbound| upperbound/.test(l)) {
          const t = l.split(' ');
          const num = (k: string) => (t.includes(k) ? Number(t[t.indexOf(k) + 1]) : undefined);
          const score = t[t.indexOf('score') + 1] === 'cp' ? { cp: num('cp')! } : { mate: num('mate')! };
          const pv = t.includes('pv') ? t.slice(t.indexOf('pv') + 1).join(' ') : undefined;
          last = { depth: num('depth'), score, nodes: num('nodes'), time: num('time'), nps: num('nps'), ...(pv ? { pv } : {}) };
        }
        return l.startsWith('bestmove');
      });
      return last;
    },
    quit: () => child.kill('SIGKILL'),
  };
}

interface Acquired {
  work: { type: string; id: string; nodes: Record<string, number>; timeout: number };
  game_id: string;
  position: string;
  variant: string;
  moves: string;
  skipPositions: number[];
}

/** fishnet's order (src/queue.rs, src/ipc.rs): positions walked backwards in chunks of at most 6, a fresh game per chunk. */
async function analyse(job: Acquired): Promise<Array<Record<string, unknown>>> {
  const moves = job.moves.split(' ').filter(Boolean);
  // api.rs NodeLimit::get: the asked limit × 6/7, for the chunks' overlap position.
  const nodes = Math.floor((job.work.nodes.sf16 * 6) / 7);
  const engine = uciEngine();
  await engine.ready();
  const out: Array<Record<string, unknown>> = new Array(moves.length + 1);
  try {
    for (let end = moves.length; end >= 0; end -= 6) {
      await engine.newGame();
      for (let i = end; i > Math.max(-1, end - 6); i--) out[i] = await engine.search(job.position, moves.slice(0, i), nodes);
    }
  } finally {
    engine.quit();
  }
  return out;
}

// lichess's published method: Win% = 50 + 50 × (2 / (1 + e^(−0.00368208 × cp)) − 1), cp within ±1000; a move's
// accuracy = 103.1668100711649 × e^(−0.04354415386753951 × win% lost) − 3.166924740191411 + 1 within [0, 100];
// a side's accuracy = the mean of the volatility-weighted mean (weights: standard deviation of win% over windows of
// clamp(moves / 10, 2, 8) positions, within [0.5, 12]) and the harmonic mean of its moves' accuracies; the start is 15 cp.
function expectedAccuracy(whiteCpAfterEachPly: number[]): { white: number; black: number } {
  const win = (cp: number) => 50 + 50 * (2 / (1 + Math.exp(-0.00368208 * Math.max(-1000, Math.min(1000, cp)))) - 1);
  const wins = [15, ...whiteCpAfterEachPly].map(win);
  const size = Math.max(2, Math.min(8, Math.floor(whiteCpAfterEachPly.length / 10)));
  const sd = (xs: number[]) => {
    const m = xs.reduce((a, b) => a + b, 0) / xs.length;
    return Math.sqrt(xs.reduce((a, x) => a + (x - m) ** 2, 0) / xs.length);
  };
  const windows: number[][] = [];
  for (let i = 0; i < Math.min(size, wins.length) - 2; i++) windows.push(wins.slice(0, size));
  for (let i = 0; i + size <= wins.length; i++) windows.push(wins.slice(i, i + size));
  const weights = windows.map((w) => Math.max(0.5, Math.min(12, sd(w))));
  const side: Record<'white' | 'black', Array<[number, number]>> = { white: [], black: [] };
  for (let i = 0; i < whiteCpAfterEachPly.length; i++) {
    const white = i % 2 === 0;
    const [before, after] = white ? [wins[i], wins[i + 1]] : [100 - wins[i], 100 - wins[i + 1]];
    const acc = after >= before ? 100 : Math.max(0, Math.min(100, 103.1668100711649 * Math.exp(-0.04354415386753951 * (before - after)) - 3.166924740191411 + 1));
    side[white ? 'white' : 'black'].push([acc, weights[i]]);
  }
  const mean = (xs: Array<[number, number]>) => {
    const weighted = xs.reduce((a, [acc, w]) => a + acc * w, 0) / xs.reduce((a, [, w]) => a + w, 0);
    const harmonic = xs.length / xs.reduce((a, [acc]) => a + 1 / Math.max(1, acc), 0);
    return (weighted + harmonic) / 2;
  };
  return { white: mean(side.white), black: mean(side.black) };
}

describe('fishnet protocol conformance (doc/protocol.md, src/api.rs)', () => {
  test('key check: 204 for a worker key, 401 without or with an unknown one, 403 for a personal token', async () => {
    expect((await fetch(`${base}/fishnet/key`, { headers: auth(key) })).status).toBe(204);
    expect((await fetch(`${base}/fishnet/key`, { headers: auth() })).status).toBe(401);
    expect((await fetch(`${base}/fishnet/key`, { headers: auth(`cfpw_${'A'.repeat(43)}`) })).status).toBe(401);
    expect((await fetch(`${base}/fishnet/key`, { headers: auth(token) })).status).toBe(403);
    // The legacy check (key in the path): 200 valid, 404 otherwise.
    expect((await fetch(`${base}/fishnet/key/${key}`)).status).toBe(200);
    expect((await fetch(`${base}/fishnet/key/nope`)).status).toBe(404);
    // A worker key opens nothing personal.
    expect((await fetch(`${base}/api/v1/me/games`, { headers: auth(key) })).status).toBe(401);
    // A personal token cannot acquire work.
    expect((await post('/fishnet/acquire', token)).status).toBe(403);
  });

  test('acquire with nothing queued answers 204; status reports the queue', async () => {
    expect((await post('/fishnet/acquire', key)).status).toBe(204);
    const status = await fetch(`${base}/fishnet/status`, { headers: auth(key) });
    expect(status.status).toBe(200);
    expect(await status.json()).toEqual({ analysis: { user: { acquired: 0, queued: 0, oldest: 0 }, system: { acquired: 0, queued: 0, oldest: 0 } } });
  });

  test('while another process holds the store’s write lock, acquire answers 503 with Retry-After and changes nothing', async () => {
    // This test's own connection takes the write lock, as another process on the store would.
    const { default: Database } = await import('better-sqlite3');
    const db = new Database(join(dir, 'data', 'chess-footprint.sqlite'));
    try {
      db.exec('BEGIN IMMEDIATE');
      const res = await fetch(base + '/fishnet/acquire', { method: 'POST', headers: auth(key), body: '{}' });
      expect(res.status).toBe(503);
      expect(res.headers.get('retry-after')).toBe('1');
      expect(((await res.json()) as { error: string }).error).toBeTruthy();
      db.exec('ROLLBACK');
    } finally {
      db.close();
    }
    expect((await post('/fishnet/acquire', key)).status).toBe(204);
  });

  test('a review is acquired, analysed with a real engine, refused when malformed, and stored once as lichess scores it', async () => {
    const asked = await fetch(`${base}/api/v1/me/games/${gameId}/review`, { method: 'POST', headers: auth(token), body: '{}' });
    expect(asked.status).toBe(202);
    // The owner's own request is user analysis: a slow client does not take it.
    expect((await post('/fishnet/acquire?slow=true', key)).status).toBe(204);
    const res = await post('/fishnet/acquire', key);
    expect(res.status).toBe(202);
    const job = (await res.json()) as Acquired;
    expect(job.work.type).toBe('analysis');
    expect(job.work.id.length).toBeLessThanOrEqual(24); // api.rs BatchId: ArrayString<24>
    expect(job.work.nodes).toEqual({ sf16: 20000, sf17_1: 20000, sf18: 20000, classical: 20000 });
    expect(job.work.timeout).toBeGreaterThan(0);
    expect(job.variant).toBe('standard');
    expect(job.position).toBe(new Chess().fen());
    expect(job.moves).toBe('e2e4 e7e5 g1f3 b8c6 f1c4 f8c5 c2c3 g8f6 d2d3 d7d6');
    expect(job.skipPositions).toEqual([]);
    // Nothing about the owner: no names, ratings, dates, nor our game id.
    const text = JSON.stringify(job);
    for (const secret of ['Ann', 'Bob', '2026', gameId]) expect(text).not.toContain(secret);
    expect(job.game_id).not.toBe(gameId);
    const status = (await (await fetch(`${base}/fishnet/status`, { headers: auth(key) })).json()) as { analysis: { user: { acquired: number } } };
    expect(status.analysis.user.acquired).toBe(1);

    const analysis = await analyse(job);
    expect(analysis).toHaveLength(11);

    // Progress: pending positions are null (protocol.md); accepted, nothing stored yet.
    const progress = analysis.map((a, i) => (i >= 8 ? a : null));
    expect((await post(`/fishnet/analysis/${job.work.id}?slow=false&stop=true`, key, { stockfish: { flavor: 'nnue' }, analysis: progress })).status).toBe(204);
    const pending = (await (await fetch(`${base}/api/v1/me/games/${gameId}`, { headers: auth(token) })).json()) as { review: unknown; reviewRequest: { status: string } };
    expect(pending.review).toBeNull();
    expect(pending.reviewRequest.status).toBe('running');
    // What is known when a worker has the job (issue 45 item 6): its progress, from its report (positions 8–10: 3 of 11).
    expect((pending.reviewRequest as unknown as { note: string }).note).toMatch(/^review worker “laptop” has searched 3 of 11 positions in \d+ s; about \d+ (s|min) left at its pace; call request_game_review/);
    const asked2 = (await (await fetch(`${base}/api/v1/me/games/${gameId}/review`, { method: 'POST', headers: auth(token), body: '{}' })).json()) as { note: string };
    expect(asked2.note).toMatch(/^running now: review worker “laptop” has searched 3 of 11 positions/);
    expect(asked2.note).not.toMatch(/20 to 40 seconds/);
    const queue = (await (await fetch(`${base}/api/v1/settings/reviews`, { headers: auth(token) })).json()) as { active: Array<{ worker: string; progress: { done: number; total: number } | null }> };
    expect(queue.active.map((j) => [j.worker, j.progress?.done, j.progress?.total])).toEqual([['laptop', 3, 11]]);

    // Another key cannot submit this key's job: 404, nothing changes.
    const other = (await cli(['worker-key', 'create', '--name', 'desktop', '--data-dir', join(dir, 'data')])).stdout.trim().split('\n').pop()!;
    expect((await post(`/fishnet/analysis/${job.work.id}`, other, { stockfish: { flavor: 'nnue' }, analysis })).status).toBe(404);
    expect((await post('/fishnet/acquire', other)).status).toBe(204);

    // Malformed: 400 naming the fault; the job goes back to the queue and the old id is void.
    const illegal = analysis.map((a, i) => (i === 3 ? { ...a, pv: 'e2e4 e2e4' } : a));
    const refused = await post(`/fishnet/analysis/${job.work.id}`, key, { stockfish: { flavor: 'nnue' }, analysis: illegal });
    expect(refused.status).toBe(400);
    expect(((await refused.json()) as { error: string }).error).toMatch(/analysis\[3\]\.pv/);
    expect((await post(`/fishnet/analysis/${job.work.id}`, key, { stockfish: { flavor: 'nnue' }, analysis })).status).toBe(404);

    // Taken again (by the other key this time): fresh id; every kind of garbage is a 400 that stores nothing.
    const again = (await (await post('/fishnet/acquire', other)).json()) as Acquired;
    expect(again.work.id).not.toBe(job.work.id);
    expect(again.moves).toBe(job.moves);
    let refusals = 0;
    for (const [body, fault] of [
      [{ stockfish: { flavor: 'nnue' }, analysis: analysis.slice(1) }, /10 entries; this job has 11 positions/],
      [{ stockfish: { flavor: 'nnue' }, analysis: analysis.map((a, i) => (i === 5 ? { ...a, score: { cp: 99999 } } : a)) }, /analysis\[5\]\.score\.cp/],
      [{ stockfish: { flavor: 'nnue' }, analysis: analysis.map((a, i) => (i === 2 ? { ...a, score: { cp: 1, mate: 2 } } : a)) }, /analysis\[2\]\.score/],
      [{ stockfish: { flavor: 'nnue' }, analysis: analysis.map((a, i) => (i === 4 ? { ...a, nodes: 10_000_000 } : a)) }, /analysis\[4\]\.nodes/],
      [{ stockfish: { flavor: 'nnue' }, analysis: analysis.map((a, i) => (i === 0 ? { skipped: true } : a)) }, /analysis\[0\].*skipPositions/],
      [{ stockfish: { flavor: 'sf9000' }, analysis }, /stockfish\.flavor/],
      ['{"stockfish": ', /not valid JSON/],
    ] as const) {
      const r = await post(`/fishnet/analysis/${again.work.id}`, other, body);
      expect(r.status).toBe(400);
      expect(((await r.json()) as { error: string }).error).toMatch(fault);
      // Each refusal put the job back; from the second in a row the key waits before it gets work again (429 with
      // Retry-After, as fishnet's api.rs reads it): 15 s after the second, doubling.
      let taken = await post('/fishnet/acquire', other);
      if (refusals++ >= 1) {
        expect(taken.status).toBe(429);
        expect(Number(taken.headers.get('retry-after'))).toBe(Math.min(600, 15 * 2 ** (refusals - 2)));
        await taken.body?.cancel();
        // Standing for the wait having passed: the refusal is dated back past it.
        backdateRefusals('desktop');
        taken = await post('/fishnet/acquire', other);
      }
      again.work.id = ((await taken.json()) as Acquired).work.id;
    }
    // Abort: 204, and the id is void (404) after.
    expect((await post(`/fishnet/abort/${again.work.id}`, other)).status).toBe(204);
    expect((await post(`/fishnet/abort/${again.work.id}`, other)).status).toBe(404);

    // Nothing of the refused submissions was stored.
    const before = (await (await fetch(`${base}/api/v1/me/games/${gameId}`, { headers: auth(token) })).json()) as { review: unknown };
    expect(before.review).toBeNull();

    const final = (await (await post('/fishnet/acquire', key)).json()) as Acquired;
    const ok = await post(`/fishnet/analysis/${final.work.id}?slow=false&stop=true`, key, { stockfish: { flavor: 'nnue' }, analysis });
    expect(ok.status).toBe(204);
    // Stored exactly once: the same submission again is a 404.
    expect((await post(`/fishnet/analysis/${final.work.id}?stop=true`, key, { stockfish: { flavor: 'nnue' }, analysis })).status).toBe(404);
    expect((await post('/fishnet/acquire', key)).status).toBe(204);

    // The stored review is lichess's method applied to the submitted evaluations (White's view after each ply).
    const whiteCp = analysis.slice(1).map((a, i) => ((a.score as { cp: number }).cp ?? NaN) * (i % 2 === 0 ? -1 : 1));
    expect(whiteCp.every(Number.isFinite)).toBe(true);
    const expected = expectedAccuracy(whiteCp);
    const detail = (await (await fetch(`${base}/api/v1/me/games/${gameId}`, { headers: auth(token) })).json()) as {
      review: { accuracyWhite: number; accuracyBlack: number; engineVersion: string };
    };
    // Shown to one decimal.
    expect(Math.abs(detail.review.accuracyWhite - expected.white)).toBeLessThanOrEqual(0.05 + 1e-9);
    expect(Math.abs(detail.review.accuracyBlack - expected.black)).toBeLessThanOrEqual(0.05 + 1e-9);
    // The engine in words, on the machine the key is named for (issue 45 item 8): fishnet clients run Stockfish, and the
    // User-Agent `fishnet-conformance/1.0 (test)` names the client's version, never shown as the engine's name.
    expect(detail.review.engineVersion).toBe('Stockfish (fishnet 1.0) on laptop');
    // MultiPV 1, as an imported lichess review: no `great`, no alternatives.
    const plies = (await (await fetch(`${base}/api/v1/me/games/${gameId}/analysis`, { headers: auth(token) })).json()) as { plies: Array<Record<string, unknown>> };
    expect(JSON.stringify(plies)).not.toContain('"great"');
  }, 120_000);

  test('bodies past the limit are 413, unknown routes 404, and no input is a 5xx', async () => {
    const big = JSON.stringify({ stockfish: { flavor: 'nnue' }, analysis: Array(40_000).fill({ depth: 1, score: { cp: 0 }, pv: 'e2e4' }) });
    expect((await post('/fishnet/analysis/abc', key, big)).status).toBe(413);
    expect((await post('/fishnet/move/abc', key, { move: { bestmove: 'e2e4' } })).status).toBe(404);
    for (const path of ['/fishnet/analysis/%ff', '/fishnet/analysis/' + 'x'.repeat(500), '/fishnet/abort/..', '/fishnet/acquire?slow=maybe']) {
      const r = await post(path, key, '[1,2');
      expect(r.status).toBeLessThan(500);
      const s = await post(path, key, { analysis: 'x' });
      expect(s.status).toBeLessThan(500);
    }
  });

  test('a revoked key is refused at once by the running server (another process revoked it)', async () => {
    const spare = (await cli(['worker-key', 'create', '--name', 'spare', '--data-dir', join(dir, 'data')])).stdout.trim().split('\n').pop()!;
    expect((await fetch(`${base}/fishnet/key`, { headers: auth(spare) })).status).toBe(204);
    const revoked = await cli(['worker-key', 'revoke', 'spare', '--data-dir', join(dir, 'data')]);
    expect(revoked.stderr).toMatch(/^revoked spare; 0 opening answers it left dropped\n/);
    expect(revoked.stdout).toBe('spare made no review\n');
    expect((await fetch(`${base}/fishnet/key`, { headers: auth(spare) })).status).toBe(403);
    expect((await post('/fishnet/acquire', spare)).status).toBe(403);
  });

  test('kill -9 a worker holding a job: the job is offered again once its lease runs out, and stored once', async () => {
    expect((await fetch(`${base}/api/v1/me/games/${shortGameId}/review`, { method: 'POST', headers: auth(token), body: '{}' })).status).toBe(202);
    // A worker in its own process acquires the job, says so, and is killed with SIGKILL before it submits anything.
    const script = `const r = await fetch(${JSON.stringify(`${base}/fishnet/acquire`)}, { method: 'POST', headers: { Authorization: 'Bearer ${key}', 'Content-Type': 'application/json' }, body: '{}' });
console.log(JSON.stringify(await r.json())); setInterval(() => {}, 1000);`;
    // The lease starts on the server between these two instants: it may run out before `acquiredAt` + the lease,
    // never before `spawnedAt` + the lease (under load the worker's print reaches us tens of ms late).
    const spawnedAt = Date.now();
    const doomed = spawn(process.execPath, ['--input-type=module', '-e', script], { stdio: ['ignore', 'pipe', 'ignore'] });
    const held = await new Promise<Acquired>((resolve) => doomed.stdout!.once('data', (d: Buffer) => resolve(JSON.parse(d.toString()) as Acquired)));
    const acquiredAt = Date.now();
    doomed.kill('SIGKILL');
    expect(held.moves).toBe('d2d4 d7d5');
    // Held: nobody gets it before the lease (3 positions × the timeout) runs out.
    expect((await post('/fishnet/acquire', key)).status).toBe(204);
    let again: Acquired | null = null;
    while (!again && Date.now() - acquiredAt < 3 * TIMEOUT_MS + 10_000) {
      await new Promise((r) => setTimeout(r, 500));
      const r = await post('/fishnet/acquire', key);
      if (r.status === 202) again = (await r.json()) as Acquired;
    }
    expect(again).not.toBeNull();
    expect(Date.now() - spawnedAt).toBeGreaterThanOrEqual(3 * TIMEOUT_MS);
    expect(again!.moves).toBe(held.moves);
    expect(again!.work.id).not.toBe(held.work.id);
    const analysis = await analyse(again!);
    expect((await post(`/fishnet/analysis/${again!.work.id}?stop=true`, key, { stockfish: { flavor: 'nnue' }, analysis })).status).toBe(204);
    // The dead worker's job id is void; the review is stored once.
    expect((await post(`/fishnet/analysis/${held.work.id}?stop=true`, key, { stockfish: { flavor: 'nnue' }, analysis })).status).toBe(404);
    const detail = (await (await fetch(`${base}/api/v1/me/games/${shortGameId}`, { headers: auth(token) })).json()) as { review: { engineVersion: string } | null };
    expect(detail.review?.engineVersion).toBe('Stockfish (fishnet 1.0) on laptop');
  }, 60_000);

  test('the owner sees each machine (last contact, reviews stored, pace), never a key; /health with the owner’s token counts their connected workers', async () => {
    const res = await fetch(`${base}/api/v1/settings/workers`, { headers: auth(token) });
    expect(res.status).toBe(200);
    const text = await res.text();
    expect(text).not.toMatch(/cfpw_/);
    const { workers } = JSON.parse(text) as { workers: Array<{ name: string; jobsDone: number; positionsDone: number; connected: boolean; revokedAt: string | null; client: string | null; positionsPerSecond: number | null }> };
    // desktop's connection is left out: its last requests were an abort, which says it is leaving (issue 45 item 6), and
    // a second abort (404) a moment later, which says it is back: which wins depends on the millisecond they came in.
    expect(workers.map((w) => [w.name, w.jobsDone, w.positionsDone, w.name === 'desktop' ? null : w.connected, w.revokedAt === null])).toEqual([
      ['laptop', 2, 14, true, true],
      ['desktop', 0, 0, null, true],
      ['spare', 0, 0, false, false],
    ]);
    expect(workers[0].client).toBe(UA);
    expect(workers[0].positionsPerSecond).toBeGreaterThan(0);
    // A worker key cannot read it.
    expect((await fetch(`${base}/api/v1/settings/workers`, { headers: auth(key) })).status).toBe(401);
    const health = (await (await fetch(`${base}/health`, { headers: auth(token) })).json()) as { engine: { workers: number; reviewWorkersConnected: number } };
    expect(health.engine.workers).toBe(0);
    expect(health.engine.reviewWorkersConnected).toBe(workers.filter((w) => w.connected).length);
  });

  test('a worker that says it is leaving is shown as gone at once; its next request shows it again', async () => {
    const connected = async () => {
      const { workers } = (await (await fetch(`${base}/api/v1/settings/workers`, { headers: auth(token) })).json()) as { workers: Array<{ name: string; connected: boolean }> };
      return workers.find((w) => w.name === 'laptop')!.connected;
    };
    expect((await fetch(`${base}/fishnet/key`, { headers: auth(key) })).status).toBe(204);
    expect(await connected()).toBe(true);
    expect((await post('/fishnet/leave', key)).status).toBe(204);
    expect(await connected()).toBe(false);
    expect((await post('/fishnet/leave', undefined)).status).toBe(401);
    await new Promise((r) => setTimeout(r, 5));
    expect((await post('/fishnet/acquire', key)).status).toBe(204);
    expect(await connected()).toBe(true);
  });
});

import { readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { issueToken } from '../../src/auth/tokens.js';
import { systemClock } from '../../src/clock.js';
import { repertoireFromLines, repertoireFromPgn } from '../../src/chess/repertoire.js';
import { createUser } from '../../src/services/accounts/accounts.js';
import { openStore, storeFile } from '../../src/store/db.js';
import { buildBenchStore } from './benchStore.js';
import { startBenchServer, stopBenchServer } from './benchServer.js';
import { percentile, type BenchTable } from './table.js';

/**
 * Issue 37, item 2: one owner's preparation reads, within their limits, must not raise another owner's p99 above
 * 50 ms. Owner A holds 5,000 games, a 500-line White repertoire (the shipped opening table's 1.e4 lines), the legal
 * 15 KB Black repertoire of 950 repeated knight moves the issue found, and a scouted player with 500 games; owner B
 * holds 500 games. While A reads, B asks for list_games one request after another; B's latencies are the figures.
 * The server is the shipped build (dist/, serveBench.mjs) in its own process, rate limits off: each round of A's is
 * within the personal bucket (120), the rounds repeated back to back to gather B's samples are harsher than the
 * limits allow (A's bucket would refuse them after the first minute's 120).
 *
 * Cases: B alone; A's 20 concurrent deviation reads of each colour and 20 of the player's report, each round after
 * A re-declared its Black repertoire (cold: the first read computes, the rest share it); the three at once; the same
 * reads kept; A re-declaring its Black repertoire and reading the deviations, 20 times in turn (every read computes).
 */
const B_GAP_MS = 5;
/** B's clients, each reading one request after another. */
const B_CLIENTS = 4;
/** Rounds of each cold case: before each, A re-declares its Black repertoire, so nothing of A's is kept. */
const ROUNDS = 5;

export async function run(): Promise<BenchTable[]> {
  const { dataDir, token: aToken, userId: aId } = await buildBenchStore(5000);
  const store = openStore(storeFile(dataDir));
  const b = createUser(store, systemClock, { displayName: 'B', email: 'b@example.test' });
  const bToken = issueToken(store, systemClock, b.id, 'bench').token;
  const columns = (store.sqlite.prepare('PRAGMA table_info(games)').all() as Array<{ name: string }>).map((c) => c.name);
  const fresh: Record<string, string> = { id: 'lower(hex(randomblob(16)))', user_id: ':b', source_id: "source_id || '-b'" };
  store.sqlite
    .prepare(`INSERT INTO games (${columns.join(', ')}) SELECT ${columns.map((c) => fresh[c] ?? c).join(', ')} FROM games WHERE user_id = :a LIMIT 500`)
    .run({ a: aId, b: b.id });
  const now = new Date().toISOString();
  const white = readFileSync(join(import.meta.dirname, '../../data/openings/c.tsv'), 'utf8')
    .split('\n')
    .slice(1)
    .map((l) => l.split('\t')[2])
    .filter((p) => p?.startsWith('1. e4'))
    .slice(0, 500)
    .map((line, i) => `[Event "line ${i + 1}"]\n\n${line} *\n`)
    .join('\n');
  const shuffle = (n: number) => Array.from({ length: n }, (_, i) => ['Nf3', 'Nf6', 'Ng1', 'Ng8'][i % 4]).join(' ');
  const insertRepertoire = store.sqlite.prepare(
    `INSERT INTO repertoires (user_id, colour, source, study_game_id, pgn, positions, updated_at) VALUES (?, ?, ?, NULL, ?, ?, ?)`,
  );
  // The demo store comes with a made-up scouted player and a repertoire per colour (src/demo/prep.ts): A's own, below, replace them.
  store.sqlite.prepare('DELETE FROM repertoires WHERE user_id = ?').run(aId);
  store.sqlite.prepare('DELETE FROM scouts WHERE user_id = ?').run(aId);
  insertRepertoire.run(aId, 'white', 'pgn', white, JSON.stringify(repertoireFromPgn(white)), now);
  insertRepertoire.run(aId, 'black', 'lines', shuffle(950), JSON.stringify(repertoireFromLines([shuffle(950)])), now);
  store.sqlite
    .prepare(`INSERT INTO scouts (id, user_id, provider, username, max_games, months, cursor, status, fetched_at, created_at) VALUES ('s1', ?, 'siteB', 'rival', 500, 12, '{}', 'ok', ?, ?)`)
    .run(aId, now, now);
  store.sqlite
    .prepare(
      `INSERT INTO scout_games (scout_id, source_id, played_at, colour, result, opponent, time_class, rated, san_moves)
       SELECT 's1', source_id, played_at, CASE colour WHEN 'white' THEN 'black' ELSE 'white' END, result, 'x', time_class, 1, san_moves
       FROM games WHERE user_id = ? AND san_moves IS NOT NULL AND san_moves != '' ORDER BY played_at DESC LIMIT 500`,
    )
    .run(aId);
  const sizes = { white: white.length, black: shuffle(950).length };
  store.sqlite.pragma('wal_checkpoint(TRUNCATE)');
  store.close();

  const rows: Array<[string, number, string, number, number, number, number, string]> = [];
  const server = await startBenchServer(dataDir, { CFP_RATE_LIMITS: 'off' });
  try {
    const get = async (path: string, token: string) => {
      const t = performance.now();
      const res = await fetch(server.url + path, { headers: { authorization: `Bearer ${token}` } });
      await res.arrayBuffer();
      return { ms: performance.now() - t, status: res.status };
    };
    const put = async (path: string, token: string, body: unknown) => {
      const res = await fetch(server.url + path, { method: 'PUT', headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' }, body: JSON.stringify(body) });
      await res.arrayBuffer();
      return res.status;
    };
    // B's reads, one after another, until `until` settles; then B's latencies.
    const whileB = async (label: string, aRequests: number, until: () => Promise<number[]>) => {
      const bMs: number[] = [];
      let stop = false;
      let bad = 0;
      const loops = Array.from({ length: B_CLIENTS }, async () => {
        while (!stop) {
          const r = await get('/api/v1/me/games', bToken);
          if (r.status !== 200) bad += 1;
          bMs.push(r.ms);
          await new Promise((res) => setTimeout(res, B_GAP_MS));
        }
      });
      const t = performance.now();
      const aMs = await until();
      const wall = performance.now() - t;
      stop = true;
      await Promise.all(loops);
      const s = bMs.sort((x, y) => x - y);
      const aSorted = aMs.sort((x, y) => x - y);
      rows.push([
        label,
        aRequests,
        aSorted.length ? `${Math.round(wall)} (slowest ${Math.round(aSorted[aSorted.length - 1])})` : `${Math.round(wall)}`,
        s.length,
        round(percentile(s, 50)),
        round(percentile(s, 99)),
        round(s[s.length - 1]),
        bad ? `${bad} not 200` : percentile(s, 99) <= 50 ? 'yes' : 'NO',
      ]);
    };
    // Warm B's own list (its first read computes the list total) and the connections.
    for (let i = 0; i < 20; i += 1) await get('/api/v1/me/games', bToken);
    await whileB('B alone (2 s)', 0, async () => (await new Promise((r) => setTimeout(r, 2000)), []));
    const burst = (path: string, n: number) => Array.from({ length: n }, () => get(path, aToken).then((r) => (r.status === 200 ? r.ms : Promise.reject(new Error(`${path}: ${r.status}`)))));
    const numbered = (n: number) =>
      shuffle(n)
        .split(' ')
        .map((san, k) => (k % 2 === 0 ? `${k / 2 + 1}. ${san}` : san))
        .join(' ') + ' *';
    const declareBlack = async (n: number) => {
      const status = await put('/api/v1/prep/repertoire/black', aToken, { pgn: numbered(n) });
      if (status !== 200) throw new Error(`declare: ${status}`);
    };
    const cold = (paths: string[]) => async () => {
      const out: number[] = [];
      for (let r = 0; r < ROUNDS; r += 1) {
        await declareBlack(950); // A's prep version moves on: nothing of A's preparation is kept
        out.push(...(await Promise.all(paths.flatMap((p) => burst(p, 20)))));
      }
      return out;
    };
    await whileB(`A: 20 concurrent deviation reads (Black, 950-ply repertoire), cold, ${ROUNDS} rounds`, ROUNDS * 21, cold(['/api/v1/prep/repertoire/black/deviations']));
    await whileB(`A: 20 concurrent deviation reads (White, 500 lines), cold, ${ROUNDS} rounds`, ROUNDS * 21, cold(['/api/v1/prep/repertoire/white/deviations']));
    await whileB(`A: 20 concurrent reads of the scouted player's report, cold, ${ROUNDS} rounds`, ROUNDS * 21, cold(['/api/v1/prep/players/siteB/rival']));
    await whileB(`A: 60 reads (the three above), concurrent, cold, ${ROUNDS} rounds`, ROUNDS * 61, cold(['/api/v1/prep/repertoire/black/deviations', '/api/v1/prep/repertoire/white/deviations', '/api/v1/prep/players/siteB/rival']));
    await whileB('A: the same 60 reads again, concurrent (kept)', 60, () =>
      Promise.all([...burst('/api/v1/prep/repertoire/black/deviations', 20), ...burst('/api/v1/prep/repertoire/white/deviations', 20), ...burst('/api/v1/prep/players/siteB/rival', 20)]),
    );
    await whileB('A: re-declare Black (950-ply) then read its deviations, 20 times in turn (every read computes)', 40, async () => {
      const out: number[] = [];
      for (let i = 0; i < 20; i += 1) {
        await declareBlack(940 + i);
        const r = await get('/api/v1/prep/repertoire/black/deviations', aToken);
        if (r.status !== 200) throw new Error(`deviations: ${r.status}`);
        out.push(r.ms);
      }
      return out;
    });
  } finally {
    await stopBenchServer(server.child);
    rmSync(dataDir, { recursive: true, force: true });
  }
  return [
    {
      title: "Preparation reads beside another owner's (issue 37, item 2): B's list_games while A reads; A: 5,000 games, B: 500",
      columns: ['A does', 'A requests', 'A wall ms', 'B reads', 'B p50 ms', 'B p99 ms', 'B max ms', 'B p99 ≤ 50 ms'],
      rows,
      notes: [
        `A's repertoires: White ${sizes.white.toLocaleString('en')} characters of PGN (500 lines), Black ${sizes.black.toLocaleString('en')} (950 knight moves); the scout holds 500 games.`,
        `B: GET /api/v1/me/games (list_games' first page), ${B_CLIENTS} clients each one request at a time, ${B_GAP_MS} ms apart, over keep-alive fetch from the bench process; the server is one process (dist/), unpinned.`,
      ],
    },
  ];
}

const round = (x: number) => (x >= 10 ? Math.round(x) : Math.round(x * 100) / 100);

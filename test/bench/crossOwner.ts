import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { movesKey, replaySan, START_FEN } from '../../src/chess/pgn.js';
import { systemClock } from '../../src/clock.js';
import { loadConfig } from '../../src/config.js';
import { EnginePool } from '../../src/engine/pool.js';
import { createUser } from '../../src/services/accounts/accounts.js';
import { ReviewQueue, insertReviewJob } from '../../src/services/review/queue.js';
import { ownerReview } from '../../src/services/review/records.js';
import { openStore, storeFile } from '../../src/store/db.js';
import { parseExport } from '../helpers/lichessExport.js';
import { percentile, type BenchTable } from './table.js';

const FIXTURE = new URL('../fixtures/lichess-analysed/games.ndjson', import.meta.url);

/**
 * Issue 30 item 3: what owner B's review of a game costs when owner A already reviewed the same moves,
 * against the same request on a store where nobody had (a fresh line for this server). Each round uses
 * a new store and a new engine process for each case, alternating, so both see the same machine.
 * The engine and budget are the configuration's (CFP_STOCKFISH, CFP_ENGINE_NODES; default 20,000 here).
 */
export async function run(): Promise<BenchTable[]> {
  const rounds = Number(process.env.CFP_BENCH_ROUNDS ?? 3);
  const g = parseExport(readFileSync(FIXTURE, 'utf8'))[0];
  const movesUci = replaySan(g.moves.split(' ').filter(Boolean), START_FEN)!.map((p) => p.uci);
  const key = movesKey(START_FEN, movesUci);
  const e = loadConfig({}, { CFP_ENGINE_NODES: '20000', ...process.env }).engine;
  const times: Record<'covered' | 'fresh', number[]> = { covered: [], fresh: [] };
  const answers: Record<'covered' | 'fresh', string[]> = { covered: [], fresh: [] };
  for (let r = 0; r < rounds; r += 1) {
    for (const c of ['covered', 'fresh'] as const) {
      const dir = mkdtempSync(join(tmpdir(), 'cfp-bench-cross-'));
      const store = openStore(storeFile(dir));
      const pool = new EnginePool({ path: e.path, build: e.build, threads: e.threads, hashMb: e.hashMb, multiPv: e.multiPv, size: 1, nodesPerPosition: e.nodesPerPosition });
      const q = new ReviewQueue(store, systemClock, () => pool);
      const job = (userId: string) => insertReviewJob(store, systemClock, { userId, subjectKind: 'study', subjectId: userId, movesKey: key, startFen: START_FEN, movesUci });
      const a = createUser(store, systemClock, { displayName: 'A', email: 'a@example.test' });
      const b = createUser(store, systemClock, { displayName: 'B', email: 'b@example.test' });
      // The engine process starts before the timed request in both cases (A's review, or a warm-up search).
      if (c === 'covered') (job(a.id), await q.runOnce());
      else await pool.analyse(START_FEN, ['e2e4'], () => '');
      job(b.id);
      const t = performance.now();
      await q.runOnce();
      times[c].push((performance.now() - t) / 1000);
      const review = ownerReview(store, b.id, key)!;
      answers[c].push(JSON.stringify({ keys: Object.keys(review).sort(), acc: [review.derivation.accuracyWhite, review.derivation.accuracyBlack] }));
      await q.stop();
      await pool.close();
      store.close();
      rmSync(dir, { recursive: true, force: true });
    }
  }
  const row = (c: 'covered' | 'fresh') => {
    const s = [...times[c]].sort((x, y) => x - y);
    return [c === 'covered' ? "B's review of moves A already reviewed" : 'the same review, nobody had reviewed them', s.length, s[0], percentile(s, 50), s[s.length - 1]];
  };
  const same = new Set([...answers.covered, ...answers.fresh]).size === 1;
  return [
    {
      title: `Cross-owner reuse (issue 30 item 3): B's wait, ${movesUci.length}-ply game, ${e.path ? 'native' : e.build} engine at ${e.nodesPerPosition} nodes`,
      columns: ['case', 'rounds', 'min s', 'p50 s', 'max s'],
      rows: [row('covered'), row('fresh')],
      notes: [same ? 'B\'s stored review (fields and accuracies) identical in every round of both cases' : 'B\'s answers DIFFER between the cases'],
    },
  ];
}

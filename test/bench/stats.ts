import { loadavg } from 'node:os';
import { openingTable } from '../../src/chess/openings.js';
import { fullMoves } from '../../src/chess/pgn.js';
import { seededRandom } from '../../src/demo/rng.js';
import { insertGames, type NewGame } from '../../src/services/games/gameWriter.js';
import { getChessStats } from '../../tools/aggregates/get_chess_stats.js';
import { makeTestApp } from '../helpers/app.js';
import { percentile, type BenchTable } from './table.js';

const SIZES = [10_000, 100_000];
const RUNS = 40;

/**
 * get_chess_stats range=all through the full call path (token check, validation, handler) on a
 * store holding N games of one owner. Rows are synthesised around real move sequences: the named
 * lines of the shipped lichess opening table (ECO, name and SAN as published).
 */
export async function run(): Promise<BenchTable[]> {
  const pool = openingTable().lines.filter((l) => l.moves.length >= 6).slice(0, 400);
  const rows: Array<Array<string | number>> = [];
  const notes: string[] = [];
  for (const n of SIZES) {
    const app = makeTestApp({ now: '2026-11-20T12:00:00Z' });
    const { user, token } = app.addUser();
    const rng = seededRandom(n);
    const t0 = performance.now();
    const start = Date.parse('2026-11-20T00:00:00Z') - n * 20 * 60_000; // a game every 20 minutes up to now
    let rating = 1500;
    for (let done = 0; done < n; done += 10_000) {
      const batch: Array<{ game: NewGame }> = [];
      for (let i = done; i < Math.min(n, done + 10_000); i += 1) {
        const provider = rng.chance(0.05) ? 'fed' : rng.chance(0.5) ? 'siteA' : 'siteB';
        const line = rng.pick(pool);
        const opp = Math.round(rng.normal(rating, 150));
        const r = rng.next();
        const result = r < 0.46 ? 'win' : r < 0.54 ? 'draw' : 'loss';
        const delta = provider === 'fed' ? null : result === 'win' ? 7 : result === 'loss' ? -7 : 0;
        batch.push({
          game: {
            userId: user.id,
            provider,
            sourceId: `b${i}`,
            playedAt: new Date(start + i * 20 * 60_000).toISOString(),
            colour: rng.chance(0.5) ? 'white' : 'black',
            result,
            opponent: `opponent${rng.int(1, 3000)}`,
            opponentRating: opp,
            userRating: rating,
            ratingDelta: delta,
            timeClass: provider === 'fed' ? 'standard' : rng.pick(['bullet', 'blitz', 'rapid', 'classical']),
            rated: true,
            eco: line.eco,
            opening: line.name,
            movesCount: provider === 'fed' ? 0 : fullMoves(line.moves.length),
            platformAccuracy: provider === 'siteA' && rng.chance(0.7) ? Math.round(rng.normal(78, 8) * 10) / 10 : null,
            sourceUrl: `https://example.test/${i}`,
            sanMoves: provider === 'fed' ? null : line.moves.join(' '),
            movesSource: provider === 'fed' ? null : 'opening-only',
          },
        });
        rating += delta ?? 0;
      }
      insertGames(app.deps.store, app.clock, batch);
    }
    const insertMs = performance.now() - t0;
    for (let i = 0; i < 3; i += 1) await app.call(getChessStats, { range: 'all' }, token);
    const times: number[] = [];
    let capped = false;
    for (let i = 0; i < RUNS; i += 1) {
      const t = performance.now();
      const out = await app.call(getChessStats, { range: 'all' }, token);
      times.push(performance.now() - t);
      capped = (out.body as { capped: boolean }).capped;
    }
    times.sort((a, b) => a - b);
    rows.push([n, String(capped), RUNS, percentile(times, 50), percentile(times, 99), insertMs / 1000]);
    await app.close();
  }
  notes.push('Wall time per call in ms, after 3 warm-up calls; aggregates cover at most the most recent 10,000 games (capped).');
  notes.push(`Load average during the run: ${loadavg().map((l) => l.toFixed(1)).join(', ')} (other processes share the CPUs; figures scale with contention).`);
  notes.push('insert s: building the store with insertGames in 10,000-game transactions.');
  return [{ title: 'get_chess_stats range=all', columns: ['games', 'capped', 'runs', 'p50 ms', 'p99 ms', 'insert s'], rows, notes }];
}

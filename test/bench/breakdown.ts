import { rmSync } from 'node:fs';
import { loadavg } from 'node:os';
import { createAppDeps } from '../../src/app.js';
import { verifyToken } from '../../src/auth/tokens.js';
import { loadConfig } from '../../src/config.js';
import type { Ctx } from '../../src/context.js';
import { tools } from '../../tools/index.js';
import { buildBenchStore } from './benchStore.js';
import type { BenchTable } from './table.js';

const ITERATIONS = 400;
const tool = (name: string) => tools.find((t) => t.name === name)!;

/**
 * `npm run bench breakdown`: where one personal read's time goes, stage by stage, in process
 * (no HTTP): token check, personal bucket (rate limits ON, a bucket too large to run dry), input
 * validation (zod), the handler (query building, drizzle, row mapping) and JSON serialisation.
 * The stages are the ones `invokeTool` runs, timed one by one over the same inputs.
 */
export async function run(): Promise<BenchTable[]> {
  const size = Number(process.env.CFP_BENCH_BREAKDOWN_GAMES ?? 10_000);
  const { dataDir, token, userId } = await buildBenchStore(size);
  const deps = createAppDeps(loadConfig({ dataDir }, { CFP_RATE_LIMITS: 'personal:1000000/60' }));
  const ids = (deps.store.sqlite.prepare('SELECT id FROM games WHERE user_id = ? ORDER BY random() LIMIT 100').all(userId) as Array<{ id: string }>).map((r) => r.id);
  const cases: Array<[string, () => Record<string, unknown>]> = [
    ['list_games', () => ({})],
    ['get_profile', () => ({})],
    ['get_game', () => ({ id: ids[Math.floor(Math.random() * ids.length)] })],
    ['list_study_games', () => ({})],
    ['list_saved_positions', () => ({})],
    ['get_coaching_state', () => ({})],
  ];
  const rows: BenchTable['rows'] = [];
  for (const [name, input] of cases) {
    const t = tool(name);
    const stages = { token: [] as number[], limiter: [] as number[], validate: [] as number[], handler: [] as number[], serialise: [] as number[] };
    for (let i = -50; i < ITERATIONS; i += 1) {
      const a = performance.now();
      const user = verifyToken(deps.store, token)!;
      const b = performance.now();
      deps.limiter.take('personal', user.id);
      const c = performance.now();
      const parsed = t.input.parse(input());
      const d = performance.now();
      const ctx: Ctx = { ...deps, user, caller: { surface: 'rest', key: 'bench' } };
      const body = await t.handler(ctx as never, parsed);
      const e = performance.now();
      JSON.stringify(body);
      const f = performance.now();
      if (i < 0) continue; // warm-up
      stages.token.push(b - a);
      stages.limiter.push(c - b);
      stages.validate.push(d - c);
      stages.handler.push(e - d);
      stages.serialise.push(f - e);
    }
    // Medians: on a shared machine a mean is mostly the time spent waiting for a core.
    const us = (xs: number[]) => Math.round(1000 * [...xs].sort((x, y) => x - y)[xs.length >> 1]);
    const m = Object.values(stages).map(us);
    rows.push([name, ...m, m.reduce((s, x) => s + x, 0)]);
  }
  await deps.runtime.close();
  deps.store.close();
  rmSync(dataDir, { recursive: true, force: true });
  return [
    {
      title: `Personal read, stage by stage (µs per call, median of ${ITERATIONS}, ${size.toLocaleString('en')} games, in process)`,
      columns: ['tool', 'token check', 'personal bucket', 'validate (zod)', 'handler (query, drizzle, mapping)', 'JSON serialise', 'sum of medians'],
      rows,
      notes: [
        'rate limits on (a personal bucket too large to run dry), so the limiter transaction is counted; HTTP parsing and express routing are not',
        `1-minute load average at the end: ${loadavg()[0].toFixed(2)} (shared machine: compare stages within a row)`,
      ],
    },
  ];
}

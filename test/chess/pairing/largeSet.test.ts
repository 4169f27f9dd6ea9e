import { execFile } from 'node:child_process';
import { availableParallelism } from 'node:os';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import { formatTable } from '../../bench/table.js';
import { agreement, AGREEMENT_COLUMNS, agreementRows, whatIfRows, type CaseOutcome, type WhatIfOutcome } from '../../bench/pairing.js';

/**
 * The engine against the large reference set (test/fixtures/pairing/large: 1,500 next-round cases and 200
 * what-if tables, bbpPairings 6.0.0's pairings). Every case and every scenario runs, spread over the cores
 * in child processes (test/bench/pairingShard.ts); the agreement is printed by group, as
 * `npm run bench -- pairing` prints it.
 *
 * Issue 26's targets are 99.8% of pairs, 98% of cases exact, every round 1, and the what-if opponent right in 99% of
 * scenarios. The engine reaches 99.91% of pairs and 99.6% of cases (1,494/1,500; 6 later rounds differ), so
 * those two are asserted at what it reaches, as floors that catch a regression.
 */
const run = promisify(execFile);
const SHARD = fileURLToPath(new URL('../../bench/pairingShard.ts', import.meta.url));

async function runShards(): Promise<{ cases: CaseOutcome[]; whatIf: WhatIfOutcome[] }> {
  // CFP_PAIRING_SHARDS=1 keeps it to one process on a shared machine.
  const count = Math.max(1, Number(process.env.CFP_PAIRING_SHARDS) || Math.min(4, availableParallelism()));
  const outs = await Promise.all(
    Array.from({ length: count }, (_, i) =>
      run(process.execPath, ['--import', 'tsx', SHARD, String(i), String(count)], { maxBuffer: 256 * 1024 * 1024 }),
    ),
  );
  const parts = outs.map((o) => JSON.parse(o.stdout) as { cases: CaseOutcome[]; whatIf: WhatIfOutcome[] });
  return { cases: parts.flatMap((p) => p.cases), whatIf: parts.flatMap((p) => p.whatIf) };
}

describe('agreement with the large reference set (bbpPairings 6.0.0, FIDE C.04.3 2025)', () => {
  it('1,500 next-round cases and 600 what-if scenarios', async () => {
    const { cases, whatIf } = await runShards();
    console.log(formatTable({ title: 'large set, fed as files', columns: AGREEMENT_COLUMNS, rows: agreementRows(cases) }));
    console.log(formatTable({ title: 'large set, what-if scenarios', columns: ['target result', 'scenarios', 'target opponent right %', 'opponent and colour right %', 'pairs matched %', 'whole rounds exact %'], rows: whatIfRows(whatIf) }));

    expect(cases).toHaveLength(1500);
    expect(cases.filter((o) => o.error).map((o) => `${o.id}: ${o.error}`)).toEqual([]);
    const a = agreement(cases);
    expect(a.pairsPct).toBeGreaterThanOrEqual(99.9);
    expect(a.wholePct).toBeGreaterThanOrEqual(99.6);
    expect(agreement(cases.filter((o) => o.round1)).wholePct).toBe(100);

    expect(whatIf).toHaveLength(600);
    expect(whatIf.filter((w) => w.round.error)).toEqual([]);
    expect(whatIf.filter((w) => w.opponentRight).length / whatIf.length).toBeGreaterThanOrEqual(0.99);
  }, 900_000); // about 150 s of CPU in all: generous for a loaded runner
});

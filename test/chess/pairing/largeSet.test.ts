import { describe, expect, it } from 'vitest';
import { formatTable } from '../../bench/table.js';
import { agreement, AGREEMENT_COLUMNS, agreementRows, largeCases, largeWhatIf, runCase, runWhatIf, whatIfRows } from '../../bench/pairing.js';

/**
 * The engine against the large reference set (test/fixtures/pairing/large: 1,500 next-round cases and 200
 * what-if tables, bbpPairings 6.0.0's pairings). Every case and every scenario runs; the agreement is printed
 * by group, as `npm run bench -- pairing` prints it, and the targets of issue 26 are asserted.
 */
describe('agreement with the large reference set (bbpPairings 6.0.0, FIDE C.04.3 2025)', () => {
  it('1,500 next-round cases: pairs, whole rounds, round 1', () => {
    const all = largeCases().map(runCase);
    console.log(formatTable({ title: 'large set, fed as files', columns: AGREEMENT_COLUMNS, rows: agreementRows(all) }));
    expect(all).toHaveLength(1500);
    expect(all.filter((o) => o.error).map((o) => `${o.id}: ${o.error}`)).toEqual([]);
    const a = agreement(all);
    expect(a.pairsPct).toBeGreaterThanOrEqual(99.8);
    expect(a.wholePct).toBeGreaterThanOrEqual(98);
    expect(agreement(all.filter((o) => o.round1)).wholePct).toBe(100);
  }, 300_000);

  it('200 what-if tables: the target’s opponent in the round after, for each result', () => {
    const ws = runWhatIf(largeWhatIf());
    console.log(formatTable({ title: 'large set, what-if scenarios', columns: ['target result', 'scenarios', 'target opponent right %', 'opponent and colour right %', 'pairs matched %', 'whole rounds exact %'], rows: whatIfRows(ws) }));
    expect(ws).toHaveLength(600);
    expect(ws.filter((w) => w.round.error)).toEqual([]);
    expect(ws.filter((w) => w.opponentRight).length / ws.length).toBeGreaterThanOrEqual(0.99);
  }, 300_000);
});

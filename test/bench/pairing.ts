import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { cpus as cpuList, loadavg } from 'node:os';
import { parseTrf, pairNextRound, type Pairing } from '../../src/chess/pairing/index.js';
import { fixturePath } from '../helpers/fixtures.js';
import { percentile, type BenchTable } from './table.js';

/** Agreement of the Dutch pairing engine with the reference cases (bbpPairings 6.0.0, FIDE C.04.3 2025). */

export const CASES_DIR = process.env.CFP_PAIRING_CASES ?? fixturePath('pairing/cases');

export interface CaseOutcome {
  id: string;
  subset: string;
  round1: boolean;
  expectedPairs: number;
  pairsMatched: number;
  boards: number;
  boardsExact: number;
  players: number;
  playersMatched: number;
  wholeRound: boolean;
  ms: number;
  cpuMs: number;
  error?: string;
}

interface Expected {
  caseId: string;
  round: number;
  subset: string;
  expected: Pairing;
}

export function runCase(id: string): CaseOutcome {
  const trf = readFileSync(join(CASES_DIR, `${id}.trf`), 'utf8');
  const exp = JSON.parse(readFileSync(join(CASES_DIR, `${id}.expected.json`), 'utf8')) as Expected;
  const started = performance.now();
  const cpu0 = process.cpuUsage();
  let got: Pairing = { boards: [], byes: [] };
  let error: string | undefined;
  try {
    got = pairNextRound(parseTrf(trf));
  } catch (e) {
    error = (e as Error).message;
  }
  const ms = performance.now() - started;
  const cpu = process.cpuUsage(cpu0);
  const cpuMs = (cpu.user + cpu.system) / 1000;
  return { ...compare(exp.expected, got), id, subset: exp.subset, round1: exp.round === 1, ms, cpuMs, error };
}

export function compare(expected: Pairing, got: Pairing) {
  const key = (a: number, b: number) => (a < b ? `${a}-${b}` : `${b}-${a}`);
  const gotPairs = new Set(got.boards.map((b) => key(b.white, b.black)));
  const pairsMatched = expected.boards.filter((b) => gotPairs.has(key(b.white, b.black))).length;
  const boardsExact = expected.boards.filter((b, i) => got.boards[i]?.white === b.white && got.boards[i]?.black === b.black).length;
  const opp = (p: Pairing) => {
    const m = new Map<number, number>();
    for (const b of p.boards) { m.set(b.white, b.black); m.set(b.black, b.white); }
    for (const y of p.byes) m.set(y, 0);
    return m;
  };
  const e = opp(expected), g = opp(got);
  let playersMatched = 0;
  for (const [p, o] of e) if (g.get(p) === o) playersMatched++;
  return {
    expectedPairs: expected.boards.length,
    pairsMatched,
    boards: expected.boards.length,
    boardsExact,
    players: e.size,
    playersMatched,
    wholeRound: boardsExact === expected.boards.length && got.boards.length === expected.boards.length && got.byes.join() === expected.byes.join(),
  };
}

export function caseIds(): string[] {
  return readdirSync(CASES_DIR).filter((f) => f.endsWith('.trf')).map((f) => f.slice(0, -4)).sort();
}

export function runAll(): CaseOutcome[] {
  return caseIds().map(runCase);
}

const cpuCount = () => cpuList().length;
const pct = (a: number, b: number) => (b ? (100 * a) / b : NaN);

function row(label: string, os: CaseOutcome[]): Array<string | number> {
  const sum = (f: (o: CaseOutcome) => number) => os.reduce((s, o) => s + f(o), 0);
  return [
    label,
    os.length,
    pct(sum((o) => o.pairsMatched), sum((o) => o.expectedPairs)),
    pct(sum((o) => o.boardsExact), sum((o) => o.boards)),
    pct(sum((o) => o.playersMatched), sum((o) => o.players)),
    pct(os.filter((o) => o.wholeRound).length, os.length),
    os.filter((o) => o.error).length,
  ];
}

export async function run(): Promise<BenchTable[]> {
  const all = runAll();
  const subsets: Array<[string, (o: CaseOutcome) => boolean]> = [
    ['all', () => true],
    ['round 1', (o) => o.round1],
    ['later rounds', (o) => !o.round1],
    ['allPresent', (o) => o.subset === 'allPresent'],
    ['knownAbsences', (o) => o.subset === 'knownAbsences'],
    ['allPresent, round 1', (o) => o.subset === 'allPresent' && o.round1],
    ['allPresent, later', (o) => o.subset === 'allPresent' && !o.round1],
    ['knownAbsences, round 1', (o) => o.subset === 'knownAbsences' && o.round1],
    ['knownAbsences, later', (o) => o.subset === 'knownAbsences' && !o.round1],
  ];
  const times = all.map((o) => o.ms).sort((a, b) => a - b);
  const cpus = all.map((o) => o.cpuMs).sort((a, b) => a - b);
  const stats = (label: string, xs: number[]) => [label, xs.length, xs.reduce((a, b) => a + b, 0) / xs.length, percentile(xs, 50), percentile(xs, 90), percentile(xs, 100)];
  return [
    {
      title: 'Dutch pairing agreement with the reference cases',
      columns: ['subset', 'cases', 'pairs matched %', 'boards exact %', 'players opponent matched %', 'whole rounds exact %', 'errors'],
      rows: subsets.map(([l, f]) => row(l, all.filter(f))),
      notes: [`reference: bbpPairings 6.0.0 (FIDE C.04.3 2025) on ${CASES_DIR}`],
    },
    {
      title: 'Dutch pairing time per case (ms)',
      columns: ['clock', 'cases', 'mean', 'p50', 'p90', 'max'],
      rows: [stats('wall', times), stats('process CPU', cpus)],
      notes: [
        `load average at the end ${loadavg().map((l) => l.toFixed(1)).join(' ')} on ${cpuCount()} cores: wall time includes waiting for the CPU; process CPU includes the GC threads`,
        'the first case also pays for JIT warm-up',
      ],
    },
    {
      title: 'Cases not matched exactly (worst first, at most 10)',
      columns: ['case', 'subset', 'round 1', 'pairs matched', 'boards exact', 'error'],
      rows: all
        .filter((o) => !o.wholeRound)
        .sort((a, b) => a.pairsMatched / a.expectedPairs - b.pairsMatched / b.expectedPairs)
        .slice(0, 10)
        .map((o) => [o.id, o.subset, o.round1 ? 'yes' : 'no', `${o.pairsMatched}/${o.expectedPairs}`, `${o.boardsExact}/${o.boards}`, o.error ?? '']),
    },
  ];
}

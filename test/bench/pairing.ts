import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { gunzipSync } from 'node:zlib';
import { cpus as cpuList, loadavg } from 'node:os';
import { parseTrf, pairNextRound, type Pairing } from '../../src/chess/pairing/index.js';
import { fixturePath } from '../helpers/fixtures.js';
import { percentile, type BenchTable } from './table.js';

/**
 * Agreement of the Dutch pairing engine with the reference cases (bbpPairings 6.0.0, FIDE C.04.3 2025): the
 * 120-case set (files) and the large set (1,500 cases and 200 what-if tables, packed; its README).
 */

export const CASES_DIR = process.env.CFP_PAIRING_CASES ?? fixturePath('pairing/cases');
export const LARGE_DIR = fixturePath('pairing/large');

export interface Expected {
  caseId: string;
  round: number;
  players: number;
  totalRounds: number;
  initialColour: 'white' | 'black';
  subset: string;
  absentNextRound: Array<{ player: number; kind: 'H' | 'Z' }>;
  expected: Pairing;
}

export interface RefCase {
  id: string;
  trf: string;
  expected: Expected;
}

export interface CaseOutcome {
  id: string;
  subset: string;
  round1: boolean;
  lastRounds: boolean;
  expectedPairs: number;
  pairsMatched: number;
  boards: number;
  boardsExact: number;
  players: number;
  playersMatched: number;
  wholeRound: boolean;
  ms: number;
  cpuMs: number;
  got: Pairing;
  error?: string;
}

/** The 120 cases, as files (NNN.trf + NNN.expected.json). */
export function smallCases(dir = CASES_DIR): RefCase[] {
  return readdirSync(dir)
    .filter((f) => f.endsWith('.trf'))
    .map((f) => f.slice(0, -4))
    .sort()
    .map((id) => ({ id, trf: readFileSync(join(dir, `${id}.trf`), 'utf8'), expected: JSON.parse(readFileSync(join(dir, `${id}.expected.json`), 'utf8')) as Expected }));
}

const jsonLines = <T>(file: string): T[] =>
  gunzipSync(readFileSync(join(LARGE_DIR, file)))
    .toString('utf8')
    .split('\n')
    .filter(Boolean)
    .map((l) => JSON.parse(l) as T);

/** The 1,500 cases of the large set. */
export const largeCases = (): RefCase[] => jsonLines<RefCase>('cases.jsonl.gz');

export interface WhatIfTable {
  id: string;
  table: { caseId: string; target: number; currentRound: number; nextRound: number; actualResult: string };
  scenarios: Record<'win' | 'draw' | 'loss', { trf: string; expected: Expected & { whatIf: { target: number } } }>;
}

/** The 200 what-if tables of the large set, each with its three scenarios (an ordinary case each). */
export const largeWhatIf = (): WhatIfTable[] => jsonLines<WhatIfTable>('whatif.jsonl.gz');

export function runCase(c: RefCase): CaseOutcome {
  const exp = c.expected;
  const started = performance.now();
  const cpu0 = process.cpuUsage();
  let got: Pairing = { boards: [], byes: [] };
  let error: string | undefined;
  try {
    got = pairNextRound(parseTrf(c.trf));
  } catch (e) {
    error = (e as Error).message;
  }
  const ms = performance.now() - started;
  const cpu = process.cpuUsage(cpu0);
  const cpuMs = (cpu.user + cpu.system) / 1000;
  return {
    ...compare(exp.expected, got),
    id: c.id,
    subset: exp.subset,
    round1: exp.round === 1,
    lastRounds: exp.round >= exp.totalRounds - 1,
    ms,
    cpuMs,
    got,
    error,
  };
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

/** The 120 cases, run (the old entry point). */
export function runAll(): CaseOutcome[] {
  return smallCases().map(runCase);
}

export interface WhatIfOutcome {
  id: string;
  result: 'win' | 'draw' | 'loss';
  /** The target's opponent (0 for the bye) and colour agree with the reference. */
  opponentRight: boolean;
  colourRight: boolean;
  round: CaseOutcome;
}

/** Every scenario of every table: the target's next opponent, as the what-if table shows it, and the whole round. */
export function runWhatIf(tables: WhatIfTable[]): WhatIfOutcome[] {
  return tables.flatMap((t) =>
    (['win', 'draw', 'loss'] as const).map((result) => {
      const sc = t.scenarios[result];
      const round = runCase({ id: `${t.id}-${result}`, trf: sc.trf, expected: sc.expected });
      const seat = (p: Pairing) => {
        const b = p.boards.find((x) => x.white === t.table.target || x.black === t.table.target);
        if (b) return { opp: b.white === t.table.target ? b.black : b.white, colour: b.white === t.table.target ? 'w' : 'b' };
        return { opp: p.byes.includes(t.table.target) ? 0 : -1, colour: '' };
      };
      const want = seat(sc.expected.expected), got = seat(round.got);
      return { id: t.id, result, opponentRight: want.opp === got.opp, colourRight: want.opp === got.opp && want.colour === got.colour, round };
    }),
  );
}

const cpuCount = () => cpuList().length;
const pct = (a: number, b: number) => (b ? (100 * a) / b : NaN);

export interface Agreement {
  cases: number;
  pairsPct: number;
  boardsPct: number;
  playersPct: number;
  wholePct: number;
  errors: number;
}

export function agreement(os: CaseOutcome[]): Agreement {
  const sum = (f: (o: CaseOutcome) => number) => os.reduce((s, o) => s + f(o), 0);
  return {
    cases: os.length,
    pairsPct: pct(sum((o) => o.pairsMatched), sum((o) => o.expectedPairs)),
    boardsPct: pct(sum((o) => o.boardsExact), sum((o) => o.boards)),
    playersPct: pct(sum((o) => o.playersMatched), sum((o) => o.players)),
    wholePct: pct(os.filter((o) => o.wholeRound).length, os.length),
    errors: os.filter((o) => o.error).length,
  };
}

export const GROUPS: Array<[string, (o: CaseOutcome) => boolean]> = [
  ['all', () => true],
  ['round 1', (o) => o.round1],
  ['later rounds', (o) => !o.round1],
  ['last two rounds', (o) => !o.round1 && o.lastRounds],
  ['allPresent', (o) => o.subset === 'allPresent'],
  ['knownAbsences', (o) => o.subset === 'knownAbsences'],
  ['allPresent, round 1', (o) => o.subset === 'allPresent' && o.round1],
  ['allPresent, later', (o) => o.subset === 'allPresent' && !o.round1],
  ['knownAbsences, round 1', (o) => o.subset === 'knownAbsences' && o.round1],
  ['knownAbsences, later', (o) => o.subset === 'knownAbsences' && !o.round1],
];

export const AGREEMENT_COLUMNS = ['subset', 'cases', 'pairs matched %', 'boards exact %', 'players opponent matched %', 'whole rounds exact %', 'errors'];

export function agreementRows(all: CaseOutcome[], prefix = ''): Array<Array<string | number>> {
  return GROUPS.map(([l, f]) => {
    const a = agreement(all.filter(f));
    return [prefix + l, a.cases, a.pairsPct, a.boardsPct, a.playersPct, a.wholePct, a.errors];
  }).filter((r) => r[1] !== 0);
}

export function whatIfRows(ws: WhatIfOutcome[]): Array<Array<string | number>> {
  return (['all', 'win', 'draw', 'loss'] as const).map((r) => {
    const os = ws.filter((w) => r === 'all' || w.result === r);
    const a = agreement(os.map((w) => w.round));
    return [r, os.length, pct(os.filter((w) => w.opponentRight).length, os.length), pct(os.filter((w) => w.colourRight).length, os.length), a.pairsPct, a.wholePct];
  });
}

function misses(all: CaseOutcome[]) {
  return all
    .filter((o) => !o.wholeRound)
    .sort((a, b) => a.pairsMatched / a.expectedPairs - b.pairsMatched / b.expectedPairs)
    .slice(0, 10)
    .map((o) => [o.id, o.subset, o.round1 ? 'yes' : 'no', `${o.pairsMatched}/${o.expectedPairs}`, `${o.boardsExact}/${o.boards}`, o.error ?? '']);
}

export async function run(): Promise<BenchTable[]> {
  const small = runAll();
  const large = largeCases().map(runCase);
  const whatIf = runWhatIf(largeWhatIf());
  const all = [...small, ...large, ...whatIf.map((w) => w.round)];
  const times = all.map((o) => o.ms).sort((a, b) => a - b);
  const cpus = all.map((o) => o.cpuMs).sort((a, b) => a - b);
  const stats = (label: string, xs: number[]) => [label, xs.length, xs.reduce((a, b) => a + b, 0) / xs.length, percentile(xs, 50), percentile(xs, 90), percentile(xs, 100)];
  return [
    {
      title: 'Dutch pairing agreement with the reference cases',
      columns: AGREEMENT_COLUMNS,
      rows: [...agreementRows(small, '120 cases: '), ...agreementRows(large, 'large set: ')],
      notes: [`reference: bbpPairings 6.0.0 (FIDE C.04.3 2025) on ${CASES_DIR} (120 cases) and ${LARGE_DIR} (1,500 cases, packed)`],
    },
    {
      title: 'What-if tables of the large set: the round after, for each result of the target’s game',
      columns: ['target result', 'scenarios', 'target opponent right %', 'opponent and colour right %', 'pairs matched %', 'whole rounds exact %'],
      rows: whatIfRows(whatIf),
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
      title: 'Cases not matched exactly (worst first, at most 10 per set)',
      columns: ['case', 'subset', 'round 1', 'pairs matched', 'boards exact', 'error'],
      rows: [...misses(small), ...misses(large)],
    },
  ];
}

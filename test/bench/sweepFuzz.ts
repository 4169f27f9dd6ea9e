import { Chess } from 'chess.js';
import { PV_MAX_CHARS } from '../../schemas/fishnet.js';

/**
 * The fuzzed submissions of the reliability sweep (issue 44, "126 fuzzed submissions with 0 × 5xx and nothing
 * half-stored"): each case mutates a valid analysis of the job just acquired and says what the protocol documents
 * for it (src/http/fishnet.ts, src/services/workers/jobs.ts): `stored` 204 (a whole analysis, kept), `progress` 204
 * (entries still null: nothing stored), `refused` 400 (the job back in the queue, nothing stored), `notHeld` 404
 * (an id the key does not hold), `badQuery` 400 (the query refused before the job is looked at).
 */
export type Expect = 'stored' | 'progress' | 'refused' | 'notHeld' | 'badQuery';

/** The job as acquire handed it out (schemas/fishnet.ts AcquireResponse, the fields read here). */
export interface HeldJob {
  work: { id: string };
  position: string;
  moves: string;
  skipPositions: number[];
}

export interface FuzzCase {
  name: string;
  expect: Expect;
  /** The expectation when it depends on the job handed out. */
  expectFor?: (job: HeldJob) => Expect;
  /** The id submitted to: the held job's, or another. */
  id: (job: HeldJob) => string;
  query?: string;
  contentType?: string;
  /** The body's text. */
  body: (job: HeldJob) => string;
}

type Entry = Record<string, unknown> | null;

/**
 * A valid whole analysis of the job: every position the first legal move as its PV at cp 17, depth 20 (issue 44
 * item 6's "fake-but-valid"), a position without moves as Stockfish answers it (depth 0, mate 0 or cp 0), a listed
 * skip as `{skipped: true}`, unless `searchSkipped` (a searched entry for a known position is taken as searched,
 * src/chess/workerAnalysis.ts): the entry mutations need a searched entry, and a job whose every position the owner's
 * opening lines already hold would otherwise have none.
 */
export function validEntries(job: HeldJob, searchSkipped = false): Entry[] {
  const board = new Chess(job.position);
  const moves = job.moves.trim() ? job.moves.trim().split(' ') : [];
  const out: Entry[] = [];
  for (let i = 0; i <= moves.length; i++) {
    const legal = board.moves({ verbose: true });
    if (job.skipPositions.includes(i) && !searchSkipped) out.push({ skipped: true });
    else if (!legal.length) out.push({ depth: 0, score: board.isCheckmate() ? { mate: 0 } : { cp: 0 } });
    else out.push({ pv: legal[0].from + legal[0].to + (legal[0].promotion ?? ''), depth: 20, score: { cp: 17 }, nodes: 1000, time: 10 });
    if (i < moves.length) board.move({ from: moves[i].slice(0, 2), to: moves[i].slice(2, 4), promotion: moves[i][4] });
  }
  return out;
}

const submission = (analysis: unknown, extra: Record<string, unknown> = {}) => ({ stockfish: { flavor: 'nnue' }, analysis, ...extra });
/** JSON text with raw numbers JSON.stringify cannot write (`1e999` parses to Infinity): a string `RAW:x` becomes `x`. */
const text = (v: unknown) => JSON.stringify(v).replace(/"RAW:([^"]*)"/g, '$1');
const own = (job: HeldJob) => job.work.id;
/**
 * The entry a mutation changes: the first or the last searched one (a PV: not terminal), among the positions the job
 * did not list as known when there are any.
 */
function mutatedAt(entries: Entry[], job: HeldJob, which: 'first' | 'last'): number {
  const searched = entries.flatMap((e, i) => (e && typeof e.pv === 'string' ? [i] : []));
  const unlisted = searched.filter((i) => !job.skipPositions.includes(i));
  const at = unlisted.length ? unlisted : searched;
  return which === 'first' ? at[0] : at[at.length - 1];
}

/** Cases that change one searched entry (applied to the first and to the last searched position). */
const ENTRY_MUTATIONS: Array<[string, Expect, (e: Record<string, unknown>) => unknown]> = [
  ['score missing', 'refused', ({ score: _, ...e }) => e],
  ['score null', 'refused', (e) => ({ ...e, score: null })],
  ['score {}', 'refused', (e) => ({ ...e, score: {} })],
  ['score []', 'refused', (e) => ({ ...e, score: [] })],
  ['cp a string', 'refused', (e) => ({ ...e, score: { cp: '17' } })],
  ['cp 1.5', 'refused', (e) => ({ ...e, score: { cp: 1.5 } })],
  ['cp 1e308', 'refused', (e) => ({ ...e, score: { cp: 1e308 } })],
  ['cp -1e308', 'refused', (e) => ({ ...e, score: { cp: -1e308 } })],
  ['cp 1e999 (Infinity)', 'refused', (e) => ({ ...e, score: { cp: 'RAW:1e999' } })],
  ['cp 32001', 'refused', (e) => ({ ...e, score: { cp: 32001 } })],
  ['cp -32001', 'refused', (e) => ({ ...e, score: { cp: -32001 } })],
  ['cp null', 'refused', (e) => ({ ...e, score: { cp: null } })],
  ['mate 0 (not mated)', 'refused', (e) => ({ ...e, score: { mate: 0 } })],
  ['mate 247', 'refused', (e) => ({ ...e, score: { mate: 247 } })],
  ['mate -247', 'refused', (e) => ({ ...e, score: { mate: -247 } })],
  ['mate 1e9', 'refused', (e) => ({ ...e, score: { mate: 1e9 } })],
  ['mate a string', 'refused', (e) => ({ ...e, score: { mate: '1' } })],
  ['cp and mate both', 'refused', (e) => ({ ...e, score: { cp: 0, mate: 1 } })],
  ['depth missing', 'refused', ({ depth: _, ...e }) => e],
  ['depth -1', 'refused', (e) => ({ ...e, depth: -1 })],
  ['depth 0 (has moves)', 'refused', (e) => ({ ...e, depth: 0 })],
  ['depth 1.5', 'refused', (e) => ({ ...e, depth: 1.5 })],
  ['depth 247', 'refused', (e) => ({ ...e, depth: 247 })],
  ['depth a string', 'refused', (e) => ({ ...e, depth: '20' })],
  ['depth null', 'refused', (e) => ({ ...e, depth: null })],
  ['depth -1e999 (-Infinity)', 'refused', (e) => ({ ...e, depth: 'RAW:-1e999' })],
  ['pv zzzz', 'refused', (e) => ({ ...e, pv: 'zzzz' })],
  ['pv an illegal move (a1a1)', 'refused', (e) => ({ ...e, pv: 'a1a1' })],
  ['pv empty', 'refused', (e) => ({ ...e, pv: '' })],
  ['pv a space', 'refused', (e) => ({ ...e, pv: ' ' })],
  ['pv missing (position has moves)', 'refused', ({ pv: _, ...e }) => e],
  ['pv a number', 'refused', (e) => ({ ...e, pv: 42 })],
  ['pv an array', 'refused', (e) => ({ ...e, pv: [e.pv] })],
  ['pv null', 'refused', (e) => ({ ...e, pv: null })],
  ['pv legal then garbage', 'refused', (e) => ({ ...e, pv: `${e.pv} xx` })],
  ['pv the same move twice', 'refused', (e) => ({ ...e, pv: `${e.pv} ${e.pv}` })],
  ['pv markup', 'refused', (e) => ({ ...e, pv: '<script>alert(1)</script>' })],
  [`pv ${PV_MAX_CHARS + 1} characters`, 'refused', (e) => ({ ...e, pv: `${e.pv} ${'a1a2 '.repeat(PV_MAX_CHARS)}`.slice(0, PV_MAX_CHARS + 1) })],
  ['pv 10 KB', 'refused', (e) => ({ ...e, pv: 'e2e4'.repeat(2560) })],
  ['time -1', 'refused', (e) => ({ ...e, time: -1 })],
  ['time 1.5', 'refused', (e) => ({ ...e, time: 1.5 })],
  ['time a string', 'refused', (e) => ({ ...e, time: 'x' })],
  ['time 1e20', 'refused', (e) => ({ ...e, time: 1e20 })],
  ['time 1e999 (Infinity)', 'refused', (e) => ({ ...e, time: 'RAW:1e999' })],
  ['nodes -5', 'refused', (e) => ({ ...e, nodes: -5 })],
  ['nodes 0', 'refused', (e) => ({ ...e, nodes: 0 })],
  ['nodes 1e12 (past 2 × asked)', 'refused', (e) => ({ ...e, nodes: 1e12 })],
  ['nodes "NaN"', 'refused', (e) => ({ ...e, nodes: 'NaN' })],
  ['nodes 1.5', 'refused', (e) => ({ ...e, nodes: 1.5 })],
  ['entry a number', 'refused', () => 42],
  ['entry a string', 'refused', () => 'x'],
  ['entry []', 'refused', () => []],
  ['entry {}', 'refused', () => ({})],
  ['skipped on a position not listed', 'refused', () => ({ skipped: true })],
  ['skipped false', 'refused', () => ({ skipped: false })],
  ['skipped with a pv', 'refused', (e) => ({ skipped: true, pv: e.pv })],
  ['an unknown field in the entry (ignored: stored)', 'stored', (e) => ({ ...e, note: 'x' })],
];

/** Every case of the sweep, in order. */
export function fuzzCases(others: { otherOwnersId: () => string; storedId: () => string }): FuzzCase[] {
  const cases: FuzzCase[] = [];
  const whole = (name: string, expect: Expect, make: (entries: Entry[], job: HeldJob) => unknown, more: Partial<FuzzCase> = {}, searchSkipped = false) =>
    cases.push({ name, expect, id: own, body: (job) => text(make(validEntries(job, searchSkipped), job)), ...more });
  const raw = (name: string, body: string) => cases.push({ name, expect: 'refused', id: own, body: () => body });

  whole('valid (the control)', 'stored', (a) => submission(a));
  // The ids next, while another owner's job is still within its lease.
  const ids: Array<[string, (job: HeldJob) => string]> = [
    ['an unknown id (22 characters)', () => 'AAAAAAAAAAAAAAAAAAAAAA'],
    ['an id of 25 characters', (job) => `${job.work.id}xyz`.padEnd(25, 'x')],
    ['an id of 1,000 characters', () => 'x'.repeat(1000)],
    ['an id with ../', () => '..%2F..%2Fhealth'],
    ['the held id in upper case', (job) => job.work.id.toUpperCase() === job.work.id ? `${job.work.id.slice(0, -1)}a` : job.work.id.toUpperCase()],
    ['another owner’s held id', () => others.otherOwnersId()],
    ['an id already stored', () => others.storedId()],
  ];
  for (const [name, id] of ids) cases.push({ name: `valid analysis to ${name}`, expect: 'notHeld', id, body: (job) => text(submission(validEntries(job))) });
  raw('empty body', '');
  raw('null', 'null');
  raw('[]', '[]');
  raw('a string', '"x"');
  raw('a number', '42');
  raw('true', 'true');
  raw('{}', '{}');
  for (const cut of [1, 0.1, 0.5, 0.9, -1]) {
    cases.push({ name: `truncated JSON (${cut === -1 ? 'last byte cut' : cut === 1 ? 'first byte only' : `${cut * 100}% kept`})`, expect: 'refused', id: own, body: (job) => {
      const t = text(submission(validEntries(job)));
      return cut === 1 ? t.slice(0, 1) : cut === -1 ? t.slice(0, -1) : t.slice(0, Math.floor(t.length * cut));
    } });
  }
  raw('nested 100 deep', `{"stockfish":${'['.repeat(100)}${']'.repeat(100)}}`);
  whole('stockfish missing', 'refused', (a) => ({ analysis: a }));
  whole('stockfish null', 'refused', (a) => ({ stockfish: null, analysis: a }));
  whole('stockfish {}', 'refused', (a) => ({ stockfish: {}, analysis: a }));
  whole('flavor unknown', 'refused', (a) => ({ stockfish: { flavor: 'x' }, analysis: a }));
  whole('flavor a number', 'refused', (a) => ({ stockfish: { flavor: 42 }, analysis: a }));
  whole('analysis missing', 'refused', () => ({ stockfish: { flavor: 'nnue' } }));
  whole('analysis null', 'refused', () => submission(null));
  whole('analysis {}', 'refused', () => submission({}));
  whole('analysis a string', 'refused', () => submission('x'));
  whole('analysis []', 'refused', () => submission([]));
  whole('analysis one entry short', 'refused', (a) => submission(a.slice(0, -1)));
  whole('analysis one entry extra', 'refused', (a) => submission([...a, a[a.length - 1]]));
  whole('analysis 4,001 entries', 'refused', (a) => submission(Array.from({ length: 4001 }, (_, i) => a[i % a.length])));
  whole('every entry null (progress)', 'progress', (a) => submission(a.map(() => null)));
  whole('entry 0 null, the rest searched (progress)', 'progress', (a) => submission(a.map((e, i) => (i === 0 ? null : e))));
  whole('one entry searched, the rest null (progress)', 'progress', (a) => submission(a.map((e, i) => (i === a.length - 1 ? e : null))));
  whole('an unknown top-level field (ignored: stored)', 'stored', (a) => submission(a, { extra: { x: 1 } }));
  whole('the legacy fishnet block (its key ignored: stored)', 'stored', (a) => submission(a, { fishnet: { version: '2.9.0', apikey: 'someone-else' } }));
  whole('the legacy fishnet block, a 10 KB apikey', 'refused', (a) => submission(a, { fishnet: { apikey: 'k'.repeat(10_240) } }));
  whole('sent as text/plain (stored)', 'stored', (a) => submission(a), { contentType: 'text/plain' });
  for (const [name, expect, mutate] of ENTRY_MUTATIONS) {
    for (const which of ['first', 'last'] as const) {
      const at = (job: HeldJob) => mutatedAt(validEntries(job, true), job, which);
      // `{skipped: true}` is right for a listed position: when the job lists every one, the case is a valid analysis.
      const expectFor = name === 'skipped on a position not listed' ? (job: HeldJob) => (job.skipPositions.includes(at(job)) ? 'stored' : 'refused') : undefined;
      whole(`${which} searched entry: ${name}`, expect, (a, job) => submission(a.map((e, k) => (k === at(job) ? mutate(e!) : e))), { expectFor }, true);
    }
  }
  cases.push({ name: 'query stop=maybe', expect: 'badQuery', id: own, query: '?stop=maybe', body: (job) => text(submission(validEntries(job))) });
  cases.push({ name: 'query slow=1', expect: 'badQuery', id: own, query: '?slow=1&stop=true', body: (job) => text(submission(validEntries(job))) });
  return cases;
}

/** The status the protocol documents for each expectation. */
export const documented: Record<Expect, number> = { stored: 204, progress: 204, refused: 400, notHeld: 404, badQuery: 400 };

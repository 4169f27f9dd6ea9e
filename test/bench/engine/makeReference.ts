import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { loadavg } from 'node:os';
import { BENCH_MULTIPV, BUDGETS, REFERENCE_FACTOR, REFERENCE_HASH_MB } from './budgets.js';
import { fixturePath } from '../../helpers/fixtures.js';
import { loadPositionSet } from './positions.js';
import { referenceEnginePath, searchStretches, type SearchedPosition } from './search.js';

/**
 * Remakes test/fixtures/engine/reference-native.json: native Stockfish's search of every fixture
 * position at REFERENCE_FACTOR × each bench budget (single thread, MultiPV 2, fresh hash per stretch).
 * Long (hundreds of CPU-seconds), hence cached in the fixture. Run:
 *   npx tsx test/bench/engine/makeReference.ts [--fresh]   (CFP_REFERENCE_ENGINE=/path/to/stockfish to choose the binary)
 * It resumes: budgets already in the file (same binary, same positions) are kept unless --fresh.
 */
export const REFERENCE_FILE = fixturePath('engine', 'reference-native.json');

export interface ReferenceFile {
  note: string;
  command: string;
  engine: { name: string; version: string; network: string | null; path: string };
  settings: { threads: 1; hashMb: number; multiPv: number; processes: number };
  /** Keyed by the reference node count (REFERENCE_FACTOR × a bench budget); per stretch, per position. */
  searches: Record<string, SearchedPosition[][]>;
  madeAt: string;
  loadAverage: number[];
}

async function main(): Promise<void> {
  const path = referenceEnginePath();
  if (!path) throw new Error('no native Stockfish: set CFP_REFERENCE_ENGINE or install Debian/Ubuntu package stockfish (/usr/games/stockfish)');
  const set = loadPositionSet();
  // Resumes: budgets already in the file with the same engine and positions are kept (--fresh remakes all).
  const old = existsSync(REFERENCE_FILE) && !process.argv.includes('--fresh') ? (JSON.parse(readFileSync(REFERENCE_FILE, 'utf8')) as ReferenceFile) : null;
  const searches: ReferenceFile['searches'] = old && old.engine.path === path ? old.searches : {};
  // Smallest budget first, and the file rewritten after each: an interrupted run still leaves usable references.
  for (const budget of BUDGETS) {
    const nodes = budget * REFERENCE_FACTOR;
    const kept = searches[String(nodes)];
    if (kept && kept.length === set.stretches.length && kept.every((s, i) => s.length === set.stretches[i].fens.length)) continue;
    const r = await searchStretches({ path, build: 'full', threads: 1, hashMb: REFERENCE_HASH_MB, multiPv: BENCH_MULTIPV }, set.stretches, nodes, 2);
    // Keep the first 8 moves of each line: the bench needs the first move and the score; the rest is for reading.
    searches[String(nodes)] = r.results.map((s) => s.map((p) => ({ ...p, lines: p.lines.map((l) => ({ ...l, pv: l.pv.slice(0, 8) })) })));
    console.error(`reference at ${nodes} nodes: ${r.wallSeconds.toFixed(0)} s wall, ${r.cpuSeconds?.toFixed(0)} CPU-s`);
    write({ name: r.engine.name, version: r.engine.version, network: r.engine.network ?? null, path }, searches);
  }
}

function write(engine: ReferenceFile['engine'], searches: ReferenceFile['searches']): void {
  const file: ReferenceFile = {
    note: 'Native Stockfish searches of the positions in review-positions.json, made by test/bench/engine/makeReference.ts; never edited by hand. Each stretch starts with ucinewgame and its positions are searched in order, as the review pool does.',
    command: 'npx tsx test/bench/engine/makeReference.ts',
    engine,
    settings: { threads: 1, hashMb: REFERENCE_HASH_MB, multiPv: BENCH_MULTIPV, processes: 2 },
    searches,
    madeAt: new Date().toISOString(),
    loadAverage: loadavg(),
  };
  writeFileSync(REFERENCE_FILE, `${JSON.stringify(file)}\n`);
}

if (import.meta.url === `file://${process.argv[1]}`) await main();

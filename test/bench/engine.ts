import { existsSync, readFileSync } from 'node:fs';
import { loadavg } from 'node:os';
import type { StoredAnalysis } from '../../schemas/engine.js';
import { parsePgn } from '../../src/chess/pgn.js';
import { buildPlies } from '../../src/chess/plyAnalysis.js';
import { loadConfig } from '../../src/config.js';
import { DEFAULT_ENGINE_BUILD, ENGINE_BUILDS } from '../../src/engine/builds.js';
import { EnginePool } from '../../src/engine/pool.js';
import type { EngineSpec } from '../../src/engine/uciEngine.js';
import { BENCH_MULTIPV, BUDGETS, REFERENCE_FACTOR } from './engine/budgets.js';
import { REFERENCE_FILE, type ReferenceFile } from './engine/makeReference.js';
import { loadPositionSet, type Stretch } from './engine/positions.js';
import { referenceEnginePath, searchStretches, type SearchedPosition } from './engine/search.js';
import { dataPath } from '../helpers/fixtures.js';
import type { BenchTable } from './table.js';

/**
 * `npm run bench engine`: what each bundled build buys per node budget, and what it costs.
 * Speed: an 80-ply game (Karpov–Kasparov, World Championship 1985 game 16, exactly 40 moves) reviewed
 * through the real pool, two engine processes. Quality: the 110 library positions of
 * test/fixtures/engine/review-positions.json searched at the budget, against native Stockfish at
 * 10× the budget (test/fixtures/engine/reference-native.json, remade by makeReference.ts):
 * same best move, and same classification of each move by the project's classifier (buildPlies).
 * Set CFP_BENCH_BUILDS=full or =lite to run one build only, CFP_BENCH_BUDGETS=n,… for other budgets.
 */
const GAME = 'karpov-kasparov-1985-g16';

function median(xs: number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  return s.length ? s[Math.floor(s.length / 2)] : NaN;
}

/** A stretch's searches as a StoredAnalysis of its moves, so buildPlies classifies them as in a review. */
function stretchAnalysis(s: Stretch, searched: SearchedPosition[]): StoredAnalysis {
  const moves = s.movesUci.slice(s.from, s.from + s.fens.length - 1);
  return {
    engine: { name: 'bench', version: '' },
    budget: { nodesPerPosition: 0, multiPv: BENCH_MULTIPV },
    startFen: s.fens[0],
    movesUci: moves,
    positions: searched.map((p, k) => ({ index: k, fen: s.fens[k], lines: p.lines, terminal: null, depth: p.depth, nodes: p.nodes })),
    analysedAt: '',
  };
}

function labels(stretches: Stretch[], searched: SearchedPosition[][]): string[] {
  return stretches.flatMap((s, i) =>
    buildPlies(stretchAnalysis(s, searched[i]), { userColour: null, clocks: null, timeControl: null, withLines: () => false }).map((p) => p.ply.classification),
  );
}

const ERRORS = new Set(['inaccuracy', 'mistake', 'blunder', 'miss']);

function loadReference(): ReferenceFile | null {
  return existsSync(REFERENCE_FILE) ? (JSON.parse(readFileSync(REFERENCE_FILE, 'utf8')) as ReferenceFile) : null;
}

export async function run(): Promise<BenchTable[]> {
  const config = loadConfig({}, {});
  const set = loadPositionSet();
  const native = referenceEnginePath();
  const g = parsePgn(readFileSync(dataPath('library', GAME, 'game.pgn'), 'utf8'));
  const moves = g.plies.map((p) => p.uci);
  const only = process.env.CFP_BENCH_BUILDS?.split(',').filter(Boolean);
  const builds = ENGINE_BUILDS.filter((b) => !only || only.includes(b));
  // CFP_BENCH_BUDGETS=5000 makes a quick smoke run (no reference at such budgets: agreement columns stay empty).
  const budgets = process.env.CFP_BENCH_BUDGETS ? process.env.CFP_BENCH_BUDGETS.split(',').map(Number) : BUDGETS;
  const positions = set.stretches.reduce((n, s) => n + s.fens.length, 0);
  const rows: Array<Array<string | number>> = [];

  // Budget by budget, both builds at each: a run cut short still compares the builds at equal budgets.
  for (const nodes of budgets) {
    for (const build of builds) {
      const spec: EngineSpec = { path: null, build, threads: 1, hashMb: config.engine.hashMb, multiPv: BENCH_MULTIPV };
      const load = loadavg()[0];
      const pool = new EnginePool({ ...spec, size: 2, nodesPerPosition: nodes });
      let game: { seconds: number; cpu: number | null; analysis: StoredAnalysis };
      try {
        const t = performance.now();
        const analysis = await pool.analyse(g.startFen, moves, () => new Date().toISOString());
        game = { seconds: (performance.now() - t) / 1000, cpu: pool.cpuSeconds(), analysis };
      } finally {
        await pool.close();
      }
      const fixture = await searchStretches(spec, set.stretches, nodes, 2);
      const flat = fixture.results.flat();
      const searchedNodes = flat.reduce((a, p) => a + p.nodes, 0);
      // Read per row: makeReference.ts may still be adding the larger budgets while the bench runs.
      const reference = loadReference();
      const deep = reference?.searches[String(nodes * REFERENCE_FACTOR)] ?? null;
      let bestAgree: number | string = 'no reference';
      let labelAgree: number | string = 'no reference';
      let errorAgree: number | string = 'no reference';
      if (deep) {
        const deepFlat = deep.flat();
        bestAgree = (100 * flat.filter((p, i) => p.lines[0]?.pv[0] === deepFlat[i]?.lines[0]?.pv[0]).length) / flat.length;
        const mine = labels(set.stretches, fixture.results);
        const theirs = labels(set.stretches, deep);
        labelAgree = (100 * mine.filter((l, i) => l === theirs[i]).length) / mine.length;
        errorAgree = (100 * mine.filter((l, i) => ERRORS.has(l) === ERRORS.has(theirs[i])).length) / mine.length;
      }
      rows.push([
        `${build}${build === DEFAULT_ENGINE_BUILD ? ' (default)' : ''}`,
        nodes,
        game.seconds,
        game.cpu === null ? 'n/a' : game.cpu / 2,
        fixture.cpuSeconds === null ? 'n/a' : Math.round(searchedNodes / fixture.cpuSeconds),
        median(flat.map((p) => p.depth)),
        bestAgree,
        labelAgree,
        errorAgree,
        fixture.peakRssBytes === null ? 'n/a' : Math.round(fixture.peakRssBytes / 2 ** 20),
        load,
      ]);
      // Each row as soon as it is measured (the whole table takes many CPU-minutes).
      console.error(`[bench engine] ${rows[rows.length - 1].join(' | ')} (fixture ${fixture.wallSeconds.toFixed(0)} s wall)`);
    }
  }
  const reference = loadReference();
  const refNote = reference
    ? `reference: ${reference.engine.name} ${reference.engine.version} (${reference.engine.network ?? 'network not reported'}), native, 1 thread, MultiPV ${reference.settings.multiPv}, ${REFERENCE_FACTOR}× each budget; cached in ${REFERENCE_FILE} (made ${reference.madeAt}; remake: ${reference.command}${native ? '' : ' — needs a native Stockfish: none found now'})`
    : `no reference file ${REFERENCE_FILE}: agreement columns empty. ${native ? `Make it with npx tsx test/bench/engine/makeReference.ts (found ${native})` : 'No native Stockfish found either: set CFP_REFERENCE_ENGINE or install Debian package stockfish (/usr/games/stockfish), then run npx tsx test/bench/engine/makeReference.ts'}`;
  return [
    {
      title: `Engine builds × node budgets (bundled Stockfish 19 WASM, single thread, MultiPV ${BENCH_MULTIPV}, hash ${config.engine.hashMb} MB)`,
      columns: [
        'build',
        'nodes/position',
        `80-ply game wall s (2 procs)`,
        'game s on 2 free cores',
        'nodes/s per process',
        'median depth',
        `same best move % (${positions} pos.)`,
        'same label %',
        'same error/not-error %',
        'peak RSS MB/process',
        'load avg',
      ],
      rows,
      notes: [
        `game: ${g.headers.White} – ${g.headers.Black}, ${g.headers.Event} ${g.headers.Date?.slice(0, 4) ?? ''} (${moves.length} plies, ${moves.length + 1} positions) through EnginePool with 2 processes; wall time includes starting both engines (network load)`,
        '"game s on 2 free cores" = both engines\' CPU seconds / 2: the review time when nothing else competes (wall time depends on the machine\'s load, recorded per row as the 1-minute load average)',
        `quality: ${positions} positions in ${set.stretches.length} stretches from data/library (${set.rule}); labels: ${positions - set.stretches.length} moves classified by src/chess/plyAnalysis.ts from the budget's and the reference's evaluations; "error/not-error": both call it an inaccuracy-or-worse (incl. miss), or both do not`,
        'nodes/s and median depth from the fixture positions; peak RSS: VmHWM of one engine process (node + WASM heap + network) after the fixture run',
        refNote,
      ],
    },
  ];
}

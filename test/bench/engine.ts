import { existsSync, readFileSync } from 'node:fs';
import { loadavg } from 'node:os';
import type { StoredAnalysis } from '../../schemas/engine.js';
import { parsePgn } from '../../src/chess/pgn.js';
import { analysisAccuracy } from '../../src/chess/reviewAccuracy.js';
import { loadConfig } from '../../src/config.js';
import { EnginePool } from '../../src/engine/pool.js';
import { UciEngine, type EngineSpec } from '../../src/engine/uciEngine.js';
import { dataPath } from '../helpers/fixtures.js';
import type { BenchTable } from './table.js';

/**
 * `npm run bench engine`: what a review costs and what the node budget buys.
 * Games: Karpov–Kasparov, World Championship 1985 game 16 (exactly 40 moves) and Fischer–Spassky 1972
 * game 6 (41 moves), from the classics library (data/library).
 */
const NATIVE = ['/usr/games/stockfish', '/usr/bin/stockfish'].find((p) => existsSync(p)) ?? null;
const GAMES = ['karpov-kasparov-1985-g16', 'fischer-spassky-1972-g6'];

function loadGame(name: string) {
  const file = dataPath('library', name, 'game.pgn');
  const g = parsePgn(readFileSync(file, 'utf8'));
  return { name, startFen: g.startFen, moves: g.plies.map((p) => p.uci), label: `${g.headers.White} – ${g.headers.Black} ${g.headers.Date?.slice(0, 4) ?? ''}` };
}

interface Run {
  analysis: StoredAnalysis;
  seconds: number;
  /** CPU seconds of both engine processes (null off Linux). */
  cpu: number | null;
}

async function review(spec: EngineSpec, nodes: number, game: ReturnType<typeof loadGame>): Promise<Run> {
  const pool = new EnginePool({ ...spec, size: 2, nodesPerPosition: nodes });
  try {
    // Start-up (process spawn, NNUE load) is part of a real review: the pool starts engines on the first job.
    const t = performance.now();
    const analysis = await pool.analyse(game.startFen, game.moves, () => new Date().toISOString());
    return { analysis, seconds: (performance.now() - t) / 1000, cpu: pool.cpuSeconds() };
  } finally {
    await pool.close();
  }
}

/** Best moves of the given positions at a deeper budget, split over two engine processes. */
async function deepBest(spec: EngineSpec, game: ReturnType<typeof loadGame>, indexes: number[], nodes: number): Promise<Map<number, string>> {
  const out = new Map<number, string>();
  const halves = [indexes.slice(0, Math.ceil(indexes.length / 2)), indexes.slice(Math.ceil(indexes.length / 2))];
  await Promise.all(
    halves.map(async (mine) => {
      const e = await UciEngine.start({ ...spec, multiPv: 1 });
      try {
        await e.newGame();
        for (const i of mine) {
          const r = await e.search(`fen ${game.startFen}${i ? ` moves ${game.moves.slice(0, i).join(' ')}` : ''}`, nodes, 600_000);
          if (r.bestMove) out.set(i, r.bestMove);
        }
      } finally {
        await e.quit();
      }
    }),
  );
  return out;
}

function median(xs: number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  return s.length ? s[Math.floor(s.length / 2)] : NaN;
}

export async function run(): Promise<BenchTable[]> {
  const config = loadConfig({}, {});
  const nodes = config.engine.nodesPerPosition;
  const multiPv = config.engine.multiPv;
  const base = { threads: 1, hashMb: config.engine.hashMb, multiPv };
  const engines: Array<{ label: string; spec: EngineSpec }> = [{ label: 'bundled WASM (stockfish npm, lite single)', spec: { ...base, path: null } }];
  if (NATIVE) engines.push({ label: `native (${NATIVE})`, spec: { ...base, path: NATIVE } });
  const games = GAMES.map(loadGame);
  const load = loadavg()[0];

  const rows: Array<Array<string | number>> = [];
  const runs = new Map<string, Run[]>();
  for (const e of engines) {
    const list: Run[] = [];
    for (const g of games) {
      const r = await review(e.spec, nodes, g);
      list.push(r);
      const searched = r.analysis.positions.filter((p) => !p.terminal);
      const totalNodes = searched.reduce((s, p) => s + p.nodes, 0);
      rows.push([
        `${r.analysis.engine.name} ${r.analysis.engine.version}`,
        `${g.label} (${g.moves.length} plies)`,
        r.seconds,
        searched.length / r.seconds,
        Math.round(totalNodes / r.seconds),
        r.cpu === null ? 'n/a' : Math.round(totalNodes / r.cpu),
        r.cpu === null ? 'n/a' : r.cpu / 2,
        median(searched.map((p) => p.depth)),
        Math.min(...searched.map((p) => p.depth)),
      ]);
    }
    runs.set(e.label, list);
  }
  const tables: BenchTable[] = [
    {
      title: `Review wall time: ${nodes.toLocaleString('en')} nodes per position, MultiPV ${multiPv}, 2 engine processes`,
      columns: ['engine', 'game', 'wall s', 'positions/s', 'nodes/s (both processes)', 'nodes per CPU-s', 'wall s on 2 free cores', 'median depth', 'min depth'],
      rows,
      notes: [
        `1-minute load average when the bench started: ${load.toFixed(2)} (the machine may be shared; figures scale with free cores)`,
        'wall time includes starting both engine processes (NNUE load); positions are split in two contiguous halves, one per process, each keeping its hash',
        '"wall s on 2 free cores" = the engines\' CPU seconds / 2: what the review takes when nothing else competes for the two cores (the halves are near-equal)',
        NATIVE ? 'native row: Debian package stockfish' : 'native row skipped: no stockfish binary at /usr/games/stockfish or /usr/bin/stockfish (apt-get install stockfish)',
      ],
    },
  ];

  // What the budget buys: agreement of the best move with a 10x deeper search of the same engine.
  const g0 = games[0];
  const wasm = runs.get(engines[0].label)![0].analysis;
  const sample = wasm.positions.filter((p) => !p.terminal && p.index % 4 === 0).map((p) => p.index);
  const deep = await deepBest(engines[0].spec, g0, sample, nodes * 10);
  const agreeRows: Array<Array<string | number>> = [];
  for (const e of engines) {
    const a = runs.get(e.label)![0].analysis;
    const same = sample.filter((i) => a.positions[i].lines[0]?.pv[0] === deep.get(i)).length;
    agreeRows.push([`${a.engine.name} ${a.engine.version}`, sample.length, same, (100 * same) / sample.length]);
  }
  tables.push({
    title: `Best move vs a 10x deeper search (${(nodes * 10).toLocaleString('en')} nodes, bundled engine, MultiPV 1)`,
    columns: ['engine at budget', 'positions sampled', 'same best move', 'agreement %'],
    rows: agreeRows,
    notes: [`${g0.label}: every 4th position`],
  });

  if (engines.length > 1) {
    const accRows: Array<Array<string | number>> = [];
    games.forEach((g, i) => {
      const a = analysisAccuracy(runs.get(engines[0].label)![i].analysis);
      const b = analysisAccuracy(runs.get(engines[1].label)![i].analysis);
      accRows.push([g.label, a.white, b.white, Math.abs(a.white - b.white), a.black, b.black, Math.abs(a.black - b.black)]);
    });
    tables.push({
      title: 'Accuracy (lichess method) from each engine on the same games',
      columns: ['game', 'White WASM', 'White native', '|Δ|', 'Black WASM', 'Black native', '|Δ|'],
      rows: accRows,
    });
  }
  return tables;
}

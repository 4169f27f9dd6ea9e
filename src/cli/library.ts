import { existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Command } from 'commander';
import { StoredAnalysis } from '../../schemas/engine.js';
import { onLichessScale } from '../chess/calibration.js';
import { parsePgn } from '../chess/pgn.js';
import { analysisAccuracy } from '../chess/reviewAccuracy.js';
import { loadConfig } from '../config.js';
import { engineLabel } from '../engine/builds.js';
import { deeperLook, EnginePool } from '../engine/pool.js';
import { dataDir } from '../paths.js';
import { fail } from './common.js';

/** What `library accuracy` writes next to each library game: computed, never typed in. */
export interface LibraryAccuracyFile {
  white: number;
  black: number;
  /** Name and version, then the build and network (`Stockfish 19 WASM, full build, nn-1a298aa575a0.nnue`). */
  engine: string;
  depth: number;
  nodesPerPosition: number;
  analysedAt: string;
}

function round1(n: number): number {
  return Math.round(n * 10) / 10;
}

/** A kept analysis is reused only when the same engine build searched the same moves at the same budget. */
function keptAnalysis(file: string, want: { build: string; nodes: number; multiPv: number; movesUci: string[] }): StoredAnalysis | null {
  let parsed;
  try {
    parsed = StoredAnalysis.safeParse(JSON.parse(readFileSync(file, 'utf8')));
  } catch {
    return null; // missing or unreadable: search again
  }
  if (!parsed.success) return null;
  const a = parsed.data;
  const same =
    a.engine.build === want.build &&
    a.budget.nodesPerPosition === want.nodes &&
    a.budget.multiPv === want.multiPv &&
    a.movesUci.join(' ') === want.movesUci.join(' ');
  return same ? a : null;
}

export function registerLibraryCommands(program: Command): void {
  const library = program.command('library').description('maintain the shipped classic-games library (data/library)');
  library
    .command('accuracy')
    .description("review every data/library/<slug>/game.pgn with Stockfish and write both players' accuracy to accuracy.json")
    .option('--engine <path>', 'native UCI engine binary (default $CFP_STOCKFISH, else the bundled WASM Stockfish build of $CFP_ENGINE_BUILD)')
    .option('--nodes <n>', 'node budget per position (default $CFP_ENGINE_NODES or 100000)')
    .option('--only <slug>', 'just this entry')
    .option('--force', 'recompute entries that already have accuracy.json')
    .option(
      '--keep-analyses <dir>',
      'keep each game\'s engine analysis in <dir>/<slug>.json and reuse it when made by the same build at the same budget (recomputes accuracy without searching again)',
    )
    .action(async (opts: { engine?: string; nodes?: string; only?: string; force?: boolean; keepAnalyses?: string }) => {
      const config = loadConfig({ enginePath: opts.engine });
      const nodes = opts.nodes ? Number(opts.nodes) : config.engine.nodesPerPosition;
      if (!Number.isInteger(nodes) || nodes < 1000) fail('--nodes must be an integer of at least 1000');
      const root = join(dataDir, 'library');
      if (!existsSync(root)) fail(`no library folder at ${root}`);
      const slugs = readdirSync(root, { withFileTypes: true })
        .filter((d) => d.isDirectory() && existsSync(join(root, d.name, 'game.pgn')))
        .map((d) => d.name)
        .filter((s) => !opts.only || s === opts.only)
        .sort();
      if (slugs.length === 0) fail(opts.only ? `no library entry ${opts.only} with a game.pgn` : `no data/library/<slug>/game.pgn under ${root}`);
      const pool = new EnginePool({
        path: config.engine.path,
        build: config.engine.build,
        threads: config.engine.threads,
        hashMb: config.engine.hashMb,
        // The same search as an in-app review, so library and personal accuracies compare like for like.
        multiPv: config.engine.multiPv,
        size: config.engine.workers,
        nodesPerPosition: nodes,
        deeper: deeperLook(config.engine.deepNodes),
      });
      let failed = 0;
      try {
        for (const slug of slugs) {
          const out = join(root, slug, 'accuracy.json');
          if (existsSync(out) && !opts.force) {
            console.error(`${slug}: accuracy.json exists (use --force to recompute)`);
            continue;
          }
          try {
            const game = parsePgn(readFileSync(join(root, slug, 'game.pgn'), 'utf8'));
            const started = Date.now();
            const movesUci = game.plies.map((p) => p.uci);
            const keep = opts.keepAnalyses ? join(opts.keepAnalyses, `${slug}.json`) : null;
            const want = { build: config.engine.path ? 'native' : config.engine.build, nodes, multiPv: config.engine.multiPv, movesUci };
            let analysis = keep ? keptAnalysis(keep, want) : null;
            if (!analysis) {
              analysis = await pool.analyse(game.startFen, movesUci, () => new Date().toISOString());
              if (keep) {
                mkdirSync(opts.keepAnalyses!, { recursive: true });
                writeFileSync(keep, `${JSON.stringify(analysis)}\n`);
              }
            }
            const acc = analysisAccuracy(onLichessScale(analysis));
            const depths = analysis.positions.filter((p) => !p.terminal).map((p) => p.depth).sort((a, b) => a - b);
            const file: LibraryAccuracyFile = {
              white: round1(acc.white),
              black: round1(acc.black),
              engine: engineLabel(analysis.engine),
              depth: depths[Math.floor(depths.length / 2)] ?? 0,
              nodesPerPosition: nodes,
              analysedAt: analysis.analysedAt,
            };
            writeFileSync(out, `${JSON.stringify(file, null, 2)}\n`);
            console.error(`${slug}: White ${file.white}, Black ${file.black} (${((Date.now() - started) / 1000).toFixed(1)} s)`);
          } catch (err) {
            failed += 1;
            console.error(`${slug}: failed: ${err instanceof Error ? err.message : String(err)}`);
          }
        }
      } finally {
        await pool.close();
      }
      if (failed) process.exit(1);
    });
}

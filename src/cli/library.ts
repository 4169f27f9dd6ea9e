import { existsSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Command } from 'commander';
import { parsePgn } from '../chess/pgn.js';
import { analysisAccuracy } from '../chess/reviewAccuracy.js';
import { loadConfig } from '../config.js';
import { EnginePool } from '../engine/pool.js';
import { dataDir } from '../paths.js';
import { fail } from './common.js';

/** What `library accuracy` writes next to each library game: computed, never typed in. */
export interface LibraryAccuracyFile {
  white: number;
  black: number;
  engine: string;
  depth: number;
  nodesPerPosition: number;
  analysedAt: string;
}

function round1(n: number): number {
  return Math.round(n * 10) / 10;
}

export function registerLibraryCommands(program: Command): void {
  const library = program.command('library').description('maintain the shipped classic-games library (data/library)');
  library
    .command('accuracy')
    .description("review every data/library/<slug>/game.pgn with Stockfish and write both players' accuracy to accuracy.json")
    .option('--engine <path>', 'native UCI engine binary (default $CFP_STOCKFISH, else the bundled WASM Stockfish)')
    .option('--nodes <n>', 'node budget per position (default $CFP_ENGINE_NODES or 150000)')
    .option('--only <slug>', 'just this entry')
    .option('--force', 'recompute entries that already have accuracy.json')
    .action(async (opts: { engine?: string; nodes?: string; only?: string; force?: boolean }) => {
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
            const analysis = await pool.analyse(game.startFen, game.plies.map((p) => p.uci), () => new Date().toISOString());
            const acc = analysisAccuracy(analysis);
            const depths = analysis.positions.filter((p) => !p.terminal).map((p) => p.depth).sort((a, b) => a - b);
            const file: LibraryAccuracyFile = {
              white: round1(acc.white),
              black: round1(acc.black),
              engine: `${analysis.engine.name} ${analysis.engine.version}`,
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

import { readFileSync } from 'node:fs';
import type { Command } from 'commander';
import { ApiError } from '../errors.js';
import { connectSource } from '../services/sync/index.js';
import { addManualGame, importPgnFile, type ImportReport } from '../services/games/index.js';
import { listConnections, SOURCE_NAMES, syncConnection, type SourceProvider, type SourceSummary, type SyncProgress } from '../services/sync/index.js';
import { storeCommand } from '../services/accounts/index.js';
import { providerNamed, SYNCED_PROVIDERS } from '../../schemas/common.js';
import { fail, requireAccount, storeOptions, withApp, type StoreOptions } from './common.js';

/** A source as the tools take it too (schemas/common.ts): siteA, siteB, fed or the sites' names, any case. */
function sourceOf(raw: string): SourceProvider {
  const p = providerNamed(SYNCED_PROVIDERS, raw);
  if (!p) fail(`unknown source "${raw}": use siteA (chess.com), siteB (lichess) or fed (ECF)`);
  return p;
}

/** One status line on stderr, redrawn in place on a terminal (a line per phase change otherwise). */
function progressPrinter() {
  const tty = process.stderr.isTTY;
  const started = new Map<SourceProvider, number>();
  let lastPhase = '';
  return {
    update(p: SyncProgress) {
      if (!started.has(p.provider)) started.set(p.provider, Date.now());
      const secs = (Date.now() - started.get(p.provider)!) / 1000;
      const width = 24;
      let bar = '';
      let eta = '';
      if (p.total) {
        const frac = Math.min(1, (p.done ?? 0) / p.total);
        bar = `[${'#'.repeat(Math.round(frac * width)).padEnd(width, '.')}] ${String(Math.round(frac * 100)).padStart(3)}% `;
        if (frac > 0 && frac < 1) eta = ` ETA ${Math.ceil((secs / frac) * (1 - frac))}s`;
      }
      const line = `${SOURCE_NAMES[p.provider].padEnd(9)} ${bar}${p.phase}: fetched ${p.fetched}, stored ${p.stored}, skipped ${p.skipped}${eta}`;
      if (tty) process.stderr.write(`\r\x1b[2K${line.slice(0, (process.stderr.columns ?? 120) - 1)}`);
      else if (p.phase !== lastPhase) process.stderr.write(`${line}\n`);
      lastPhase = p.phase;
    },
    done() {
      if (tty) process.stderr.write('\r\x1b[2K');
    },
  };
}

function summaryLine(s: SourceSummary): string {
  const skipped = Object.entries(s.skipped).map(([k, v]) => `${v} ${k}`).join(', ');
  const parts = [`fetched ${s.fetched}`, `stored ${s.stored}`, `skipped ${skipped || 0}`];
  if (s.provider === 'siteA') parts.push(`${s.monthsUnchanged} months unchanged`);
  if (s.ratingPoints) parts.push(`${s.ratingPoints} rating points`);
  if (s.puzzleAttempts) parts.push(`${s.puzzleAttempts} puzzles`);
  const head = `${SOURCE_NAMES[s.provider]} (${s.externalId}): ${s.ok ? 'ok' : 'FAILED'}`;
  return [`${head}: ${parts.join(', ')}`, ...(s.error ? [`  error: ${s.error}`] : []), ...s.notes.map((n) => `  note: ${n}`)].join('\n');
}

function importSummary(r: ImportReport): string {
  const lines = [`${r.games} games read: ${r.imported} imported, ${r.duplicates} duplicates skipped, ${r.linkedToFed} linked to ECF results, ${r.errors.length} not imported`];
  for (const e of r.errors) lines.push(`  game ${e.index}${e.white || e.black ? ` (${e.white ?? '?'} - ${e.black ?? '?'}${e.date ? `, ${e.date}` : ''})` : ''}: ${e.reason}`);
  return lines.join('\n');
}

export function registerSyncCommands(program: Command): void {
  storeOptions(
    program
      .command('connect')
      .description('connect a source: siteA USERNAME (chess.com), siteB USERNAME [--token T] (lichess), fed REFCODE (ECF)')
      .argument('<source>', 'siteA | siteB | fed')
      .argument('<id>', 'chess.com or lichess username, or ECF rating code')
      .option('--token <token>', 'lichess personal API token (optional; puzzle:read adds puzzle activity)'),
  ).action((source: string, id: string, opts: StoreOptions & { token?: string }) =>
    withApp(opts, (deps) => {
      const user = requireAccount(deps, opts);
      try {
        const c = connectSource(deps, user.id, sourceOf(source), id, opts.token);
        console.log(`connected ${SOURCE_NAMES[c.provider]} ${c.externalId}; run \`${storeCommand(deps.config.dataDir, 'sync')}\` to fetch the games`);
      } catch (err) {
        if (err instanceof ApiError) fail(err.message);
        throw err;
      }
    }),
  );

  storeOptions(
    program
      .command('sync')
      .description('fetch new games from every connected source (or one), with progress on stderr')
      .option('--source <source>', 'only this source: siteA | siteB | fed')
      .option('--full', 'ignore the stored cursors and refetch everything (never duplicates)'),
  ).action(async (opts: StoreOptions & { source?: string; full?: boolean }) => {
    const failed = await withApp(opts, async (deps) => {
      const user = requireAccount(deps, opts);
      const all = listConnections(deps, user.id, opts.source ? sourceOf(opts.source) : undefined);
      if (!all.length) fail(`no source connected: run \`${storeCommand(deps.config.dataDir, 'connect siteA|siteB|fed ID')}\` first`);
      // A demo store's made-up accounts are never synced (they would be real strangers' accounts):
      // nothing is wrong, so they are skipped with one line, not reported as failures.
      const demo = all.filter((c) => c.status === 'demo');
      if (demo.length) console.log(`skipped ${demo.length} demo connection${demo.length > 1 ? 's' : ''} (${demo.map((c) => `${SOURCE_NAMES[c.provider]} ${c.externalId}`).join(', ')}): made-up accounts, never synced`);
      const bar = progressPrinter();
      const summaries: SourceSummary[] = [];
      for (const c of all.filter((c) => c.status !== 'demo')) summaries.push(await syncConnection(deps, c, { full: !!opts.full, onProgress: bar.update }));
      bar.done();
      for (const s of summaries) console.log(summaryLine(s));
      return summaries.some((s) => !s.ok);
    });
    if (failed) process.exitCode = 1;
  });

  storeOptions(
    program
      .command('import')
      .description('import a PGN file (any number of games), streamed game by game')
      .argument('<file>', 'PGN file')
      .option('--as <side>', 'your side: white, black, or your name as written in the file'),
  ).action(async (file: string, opts: StoreOptions & { as?: string }) => {
    const report = await withApp(opts, async (deps) => {
      const user = requireAccount(deps, opts);
      return importPgnFile(deps, user, file, {
        as: opts.as,
        onProgress: (r) => process.stderr.isTTY && process.stderr.write(`\r\x1b[2K${r.games} games read, ${r.imported} imported`),
      });
    });
    if (process.stderr.isTTY) process.stderr.write('\r\x1b[2K');
    console.log(importSummary(report));
    if (report.games > 0 && report.imported + report.duplicates + report.linkedToFed === 0) process.exitCode = 1;
  });

  storeOptions(
    program
      .command('add-game')
      .description('record one game by hand (an over-the-board game, say), with its moves if you have a PGN')
      .requiredOption('--opponent <name>', 'opponent name')
      .requiredOption('--result <result>', 'win | draw | loss (your side)')
      .requiredOption('--colour <colour>', 'white | black')
      .requiredOption('--date <date>', 'YYYY-MM-DD')
      .option('--time-control <tc>', 'PGN time control, e.g. 5400+30')
      .option('--time-class <class>', 'bullet | blitz | rapid | classical | standard | correspondence')
      .option('--event <event>', 'event name')
      .option('--rating <n>', 'your rating before the game')
      .option('--opponent-rating <n>', "opponent's rating")
      .option('--rated', 'the game was rated')
      .option('--pgn <file>', 'PGN file holding this one game'),
  ).action((opts: StoreOptions & Record<string, string | boolean | undefined>) =>
    withApp(opts, (deps) => {
      const user = requireAccount(deps, opts);
      const int = (v: unknown) => (v === undefined ? undefined : Number(v));
      try {
        const r = addManualGame(deps, user, {
          opponent: String(opts.opponent),
          result: opts.result as 'win',
          colour: opts.colour as 'white',
          date: String(opts.date),
          timeControl: opts.timeControl as string | undefined,
          timeClass: opts.timeClass as 'classical' | undefined,
          event: opts.event as string | undefined,
          userRating: int(opts.rating),
          opponentRating: int(opts.opponentRating),
          rated: !!opts.rated,
          pgn: opts.pgn ? readFileSync(String(opts.pgn), 'utf8') : undefined,
        });
        console.log(r.duplicate ? `already recorded: ${r.id}` : r.id);
      } catch (err) {
        if (err instanceof ApiError) fail(err.message);
        throw err;
      }
    }),
  );
}

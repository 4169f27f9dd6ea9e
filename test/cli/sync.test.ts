import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Command } from 'commander';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { registerSyncCommands } from '../../src/cli/sync.js';
import { cliCommand } from '../../src/services/accounts/index.js';
import { systemClock } from '../../src/clock.js';
import { createUser } from '../../src/services/accounts/accounts.js';
import { openStore, storeFile } from '../../src/store/db.js';
import { startFixtureServer, type FixtureServer } from '../helpers/fixtureServer.js';
import { FIXTURES, fixture, fixtureLines, playLichess } from '../services/sync/sourceFixtures.js';

let dir: string;
let server: FixtureServer;
let out: string[];
let err: string[];
beforeEach(async () => {
  dir = mkdtempSync(join(tmpdir(), 'cfp-cli-'));
  const store = openStore(storeFile(dir));
  createUser(store, systemClock, { displayName: 'Rowan Ranger', email: 'rowan@example.test' });
  store.close();
  server = await startFixtureServer();
  vi.stubEnv('CFP_LICHESS_URL', server.url);
  vi.stubEnv('CFP_ECF_URL', server.url);
  out = [];
  err = [];
  vi.spyOn(console, 'log').mockImplementation((...a) => void out.push(a.join(' ')));
  vi.spyOn(process.stderr, 'write').mockImplementation((s) => (err.push(String(s)), true));
  process.exitCode = undefined;
});
afterEach(async () => {
  vi.restoreAllMocks();
  vi.unstubAllEnvs();
  process.exitCode = undefined;
  await server.close();
  rmSync(dir, { recursive: true, force: true });
});

async function run(...args: string[]) {
  const program = new Command().exitOverride();
  registerSyncCommands(program);
  await program.parseAsync(['node', 'chess-footprint', ...args, '--data-dir', dir]);
}

describe('sync CLI', () => {
  it('connect, sync with progress and a summary, exit code non-zero when a source fails', async () => {
    playLichess(server, { lines: fixtureLines('lichess/games_user_export.ndjson') });
    server.route('/v2/new/api.php', (_q, res) => void res.writeHead(200).end('{"games": "not a list"}'));
    await run('connect', 'siteB', 'RookRanger42');
    await run('connect', 'fed', '998877C');
    expect(out).toEqual([`connected lichess RookRanger42; run \`${cliCommand()} sync --data-dir ${dir}\` to fetch the games`, `connected ECF 998877C; run \`${cliCommand()} sync --data-dir ${dir}\` to fetch the games`]);
    out.length = 0;
    await run('sync');
    expect(out.join('\n')).toContain('lichess (RookRanger42): ok: fetched 5, stored 5, skipped 0');
    expect(out.join('\n')).toContain('ECF (998877C): FAILED');
    expect(out.join('\n')).toContain('error: ECF sent data that did not parse: ECF Standard games of 998877C: games: Invalid input: expected array, received string');
    expect(err.join('')).toContain('lichess   rating history: fetched 5, stored 5, skipped 0');
    expect(process.exitCode).toBe(1);
    process.exitCode = undefined;
    out.length = 0;
    await run('sync', '--source', 'siteB');
    expect(out.join('\n')).toContain('lichess (RookRanger42): ok: fetched 1, stored 0, skipped 1 duplicate');
    expect(process.exitCode).toBeUndefined();
  });

  it('import reports the broken game by index; add-game records a game', async () => {
    await run('import', join(FIXTURES, 'pgn/lichess_with_broken.pgn'), '--as', 'RookRanger42');
    out = out.join('\n').split('\n');
    expect(out[0]).toBe('6 games read: 5 imported, 0 duplicates skipped, 0 linked to ECF results, 1 not imported');
    expect(out[1]).toBe('  game 3 (RookRanger42 - Careless, Carl, 2025.03.05): 5.Ke3 is not legal in that position');
    out.length = 0;
    const pgn = join(dir, 'one.pgn');
    writeFileSync(pgn, fixture('pgn/manual_import_otb.pgn').split('\n\n[Event')[0]);
    await run('add-game', '--opponent', 'Whitlock, Harriet', '--result', 'draw', '--colour', 'white', '--date', '2025-03-18', '--time-control', '5400+30', '--pgn', pgn);
    expect(out[0]).toMatch(/^[0-9a-f-]{36}$/);
    await run('add-game', '--opponent', 'Whitlock, Harriet', '--result', 'draw', '--colour', 'white', '--date', '2025-03-18', '--time-control', '5400+30', '--pgn', pgn);
    expect(out[1]).toBe(`already recorded: ${out[0]}`);
  });
});

import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { describe, expect, test } from 'vitest';

const root = join(import.meta.dirname, '..', '..');

describe('the store driver (better-sqlite3 13)', () => {
  // 12.x on Node 24 aborted (exit 134, `Assertion failed: (env) != nullptr` in RemoveEnvironmentCleanupHook)
  // when a GC finalized Statements while no Environment was current, as at teardown: a process that dropped
  // 20,000 statements aborted 5 times in 5 on Node 24.21.0 with 12.9.0. 13 (Node-API) exits 0, output whole.
  test(`a process that exits with 20,000 dropped statements exits 0 (Node ${process.versions.node})`, () => {
    const sqlite = join(root, 'src', 'store', 'sqlite.ts');
    const script = `
      import { Database } from ${JSON.stringify(sqlite)};
      const db = new Database(':memory:');
      let n = 0;
      for (let i = 0; i < 20000; i++) n += db.prepare('select ' + i + ' as n').get().n;
      console.log(n);`;
    const run = spawnSync(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', script], { encoding: 'utf8' });
    expect(run.stderr).not.toMatch(/Assertion failed/);
    // 0 + 1 + … + 19,999
    expect({ status: run.status, signal: run.signal, out: run.stdout.trim() }).toEqual({ status: 0, signal: null, out: '199990000' });
  });

  // npm ci still runs node-gyp's implicit `rebuild` for it (npm reads `gypfile: false` from the package, not from
  // the lockfile it installs by), and 13's binding.gyp makes that a no-op when a prebuild fits this platform:
  // stamps only. What must hold is that no binary was compiled, so the packaged one is what loads.
  test('the installed driver is 13 with no install script, and no binary was compiled: the packaged prebuild loads', async () => {
    const { createRequire } = await import('node:module');
    const { existsSync } = await import('node:fs');
    const require = createRequire(import.meta.url);
    const pkg = require('better-sqlite3/package.json') as { version: string; scripts?: Record<string, string> };
    expect(pkg.version.split('.')[0]).toBe('13');
    expect(pkg.scripts?.install).toBeUndefined();
    const dir = join(root, 'node_modules', 'better-sqlite3');
    for (const build of ['Release', 'Debug']) expect(existsSync(join(dir, 'build', build, 'better_sqlite3.node'))).toBe(false);
    expect(existsSync(join(dir, 'prebuilds', `${process.platform}-${process.arch}.node`))).toBe(true);
  });
});

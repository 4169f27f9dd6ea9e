import { execFileSync } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { afterAll, describe, expect, test } from 'vitest';
import { copyCheckout, NOT_IN_A_CLONE } from '../helpers/clone.js';
import { REPO_ROOT } from '../helpers/fixtures.js';

function walk(dir: string, out: string[] = []): string[] {
  for (const name of readdirSync(dir)) {
    if (NOT_IN_A_CLONE.has(name)) continue;
    const path = join(dir, name);
    if (statSync(path).isDirectory()) walk(path, out);
    else out.push(path);
  }
  return out;
}

/** The tests that read files (fixtures, the classics library, the pairing cases, the saved pages). */
const DATA_READING_TESTS = [
  'test/chess/pgn.test.ts',
  'test/chess/accuracy.test.ts',
  'test/chess/judgments.test.ts',
  'test/chess/pairing/trf.test.ts',
  'test/sources/chessresults/parse.test.ts',
  'test/services/library/library.test.ts',
  'test/engine/uciParser.test.ts',
];

describe('a clone placed anywhere', () => {
  const tmp = mkdtempSync(join(tmpdir(), 'cfp-clone-'));
  afterAll(() => rmSync(tmp, { recursive: true, force: true }));

  test('no source, test, tool or schema file names a path outside the checkout', () => {
    const offenders: string[] = [];
    for (const top of ['src', 'test', 'tools', 'schemas', 'bin']) {
      for (const file of walk(join(REPO_ROOT, top))) {
        if (!/\.(ts|js|mjs|json)$/.test(file)) continue;
        const text = readFileSync(file, 'utf8');
        // The build workspace's folders, or a lookup of a `shared/` folder beside or above the checkout.
        if (/\/work\/|['"`]\.\.\/shared|join\([^)]*['"`]shared['"`]/.test(text)) offenders.push(relative(REPO_ROOT, file));
      }
    }
    expect(offenders).toEqual([]);
  });

  test('the data-reading tests pass in a copy with nothing beside it', () => {
    const clone = copyCheckout(join(tmp, 'chess-footprint'));
    const vitest = join(clone, 'node_modules', 'vitest', 'vitest.mjs');
    const out = execFileSync(process.execPath, [vitest, 'run', ...DATA_READING_TESTS], {
      cwd: clone,
      encoding: 'utf8',
      env: { ...process.env, CI: '1', NO_COLOR: '1' },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    expect(out).toMatch(new RegExp(`Test Files\\s+${DATA_READING_TESTS.length} passed`));
  }, 240_000);
});

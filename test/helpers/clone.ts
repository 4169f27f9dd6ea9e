import { cpSync, symlinkSync } from 'node:fs';
import { join } from 'node:path';
import { REPO_ROOT } from './fixtures.js';

/** What a clone does not hold: installed modules, build output, local stores and git's own folder. */
export const NOT_IN_A_CLONE = new Set(['node_modules', 'dist', '.git', '.data', 'coverage']);

/**
 * Copies the checkout to `dest` as a fresh clone would have it, with the installed modules linked in
 * (they are not part of a clone; `npm ci` would put the same ones there).
 */
export function copyCheckout(dest: string): string {
  cpSync(REPO_ROOT, dest, { recursive: true, filter: (src) => !NOT_IN_A_CLONE.has(src.split(/[\\/]/).pop()!) });
  symlinkSync(join(REPO_ROOT, 'node_modules'), join(dest, 'node_modules'), 'dir');
  return dest;
}

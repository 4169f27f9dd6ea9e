import { existsSync } from 'node:fs';
import { dirname, join } from 'node:path';

/** The project's `shared/` folder (spec, source samples, classics), found beside the checkout or above it. */
export function sharedDir(): string {
  let dir = import.meta.dirname;
  for (;;) {
    const candidate = join(dir, 'shared');
    if (existsSync(join(candidate, 'spec'))) return candidate;
    const parent = dirname(dir);
    if (parent === dir) throw new Error('shared/ not found beside or above the checkout');
    dir = parent;
  }
}

export const sharedPath = (...parts: string[]) => join(sharedDir(), ...parts);

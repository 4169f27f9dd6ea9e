import { join } from 'node:path';

/** The checkout's root, found from this file (tests run from any working directory). */
export const REPO_ROOT = join(import.meta.dirname, '..', '..');

/** A file under `test/fixtures/` (each folder there carries the source note of what it holds). */
export const fixturePath = (...parts: string[]) => join(REPO_ROOT, 'test', 'fixtures', ...parts);

/** A file under the repository's `data/` (the classics library, the opening tables). */
export const dataPath = (...parts: string[]) => join(REPO_ROOT, 'data', ...parts);

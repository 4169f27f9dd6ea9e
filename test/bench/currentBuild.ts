import { existsSync, readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { packageRoot } from '../../src/paths.js';

/**
 * The servers and CLIs measured by the benchmarks are the shipped build (dist/, as `npm ci` leaves it): refuse to measure
 * a build older than the sources it came from rather than report figures of code no longer there.
 */
export function requireCurrentBuild(): void {
  const built = join(packageRoot, 'dist/src/app.js');
  if (!existsSync(built)) throw new Error('no build in dist/: run `npm run build` first');
  const builtAt = statSync(built).mtimeMs;
  const newer = ['src', 'tools', 'schemas'].flatMap((dir) =>
    readdirSync(join(packageRoot, dir), { recursive: true, encoding: 'utf8' }).filter((f) => f.endsWith('.ts') && statSync(join(packageRoot, dir, f)).mtimeMs > builtAt).map((f) => `${dir}/${f}`),
  );
  if (newer.length) throw new Error(`dist/ is older than ${newer.slice(0, 3).join(', ')}${newer.length > 3 ? ' …' : ''}: run \`npm run build\` first`);
}

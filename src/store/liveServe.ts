import { readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

/**
 * Which `serve` is working on a data folder, so a process without an HTTP origin of its own (`mcp`
 * over stdio) can link to the address the dashboard really has rather than a guessed port 3000.
 * `serve` writes `serve.json` (its pid and origin, 0600 like every file here) once it listens and
 * removes it on a clean stop; a file left by a killed `serve` names a pid that is no longer alive
 * and is ignored.
 */
const FILE = 'serve.json';

interface ServeMarker {
  pid: number;
  origin: string;
}

export function markServing(dataDir: string, origin: string): () => void {
  const file = join(dataDir, FILE);
  const tmp = `${file}.tmp-${process.pid}`;
  writeFileSync(tmp, JSON.stringify({ pid: process.pid, origin } satisfies ServeMarker), { mode: 0o600 });
  renameSync(tmp, file);
  return () => {
    // Only our own marker: a later `serve` on the same folder may have replaced it.
    if (liveServe(dataDir, { includeSelf: true })?.pid === process.pid) rmSync(file, { force: true });
  };
}

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    // EPERM: the process exists but belongs to someone else; still alive.
    return (err as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/** The live `serve` on this data folder, or null (none, stopped, or killed). */
export function liveServe(dataDir: string, opts: { includeSelf?: boolean } = {}): ServeMarker | null {
  let marker: Partial<ServeMarker>;
  try {
    marker = JSON.parse(readFileSync(join(dataDir, FILE), 'utf8'));
  } catch {
    return null;
  }
  if (!Number.isInteger(marker.pid) || typeof marker.origin !== 'string' || !/^https?:\/\//.test(marker.origin)) return null;
  if (marker.pid === process.pid && !opts.includeSelf) return null;
  return alive(marker.pid!) ? { pid: marker.pid!, origin: marker.origin } : null;
}

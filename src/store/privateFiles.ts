import { chmodSync, closeSync, existsSync, mkdirSync, openSync, statSync } from 'node:fs';

/**
 * The store is personal data on what may be a shared machine: the data folder is 0700 and every
 * file in it 0600. An existing store made by an older version (0755 / 0644) is fixed at start and
 * the fix is reported. Windows has no POSIX modes; there the folder's ACL applies and this is a no-op.
 */
const POSIX = process.platform !== 'win32';

export type Log = (line: string) => void;

function tighten(path: string, mode: number, log: Log): void {
  if (!POSIX) return;
  const was = statSync(path).mode & 0o777;
  if ((was & ~mode) === 0) return;
  chmodSync(path, mode);
  log(`made ${path} private: mode ${mode.toString(8)} (was ${was.toString(8)})`);
}

export function ensurePrivateDir(dir: string, log: Log): void {
  if (!existsSync(dir)) {
    mkdirSync(dir, { recursive: true, mode: 0o700 });
    return;
  }
  tighten(dir, 0o700, log);
}

/** Creates `file` empty with mode 0600 when missing (so SQLite never creates it 0644), else tightens it. */
export function ensurePrivateFile(file: string, log: Log, create = false): void {
  if (!existsSync(file)) {
    if (create) closeSync(openSync(file, 'a', 0o600));
    return;
  }
  tighten(file, 0o600, log);
}

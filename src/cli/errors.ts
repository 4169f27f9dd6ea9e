import { ConfigError } from '../config.js';

/**
 * Exit codes of the CLI (docs/cli.md, "Exit codes"). Anything not listed is 1.
 * Messages name the thing to fix, never a raw Node error code alone.
 */
export const EXIT = {
  ok: 0,
  failure: 1,
  /** Bad usage or input: an unknown option, an invalid setting, a file that does not exist or cannot be read. */
  usage: 2,
  /** The data folder cannot be created, read or written, or holds something that is not a store. */
  dataDir: 3,
  /** The port is taken or not allowed. */
  port: 4,
  /** This Node is older than the store's driver runs on (bin/chess-footprint.js, before anything is loaded). */
  node: 5,
} as const;

export class CliError extends Error {
  constructor(
    message: string,
    readonly exitCode: number = EXIT.failure,
  ) {
    super(message);
  }
}

type SysError = NodeJS.ErrnoException & { address?: string; port?: number };

const SQLITE_STORE_FAULTS = new Set(['SQLITE_CANTOPEN', 'SQLITE_READONLY', 'SQLITE_NOTADB', 'SQLITE_PERM', 'SQLITE_CORRUPT']);

/** The data folder could not be used: says which, why, and what to do. */
export function dataDirError(dataDir: string, err: unknown): CliError {
  const e = err as SysError;
  const why =
    e.code === 'EACCES' || e.code === 'EPERM' || e.code === 'SQLITE_READONLY' || e.code === 'SQLITE_PERM'
      ? 'permission denied'
      : e.code === 'SQLITE_NOTADB' || e.code === 'SQLITE_CORRUPT'
        ? 'its chess-footprint.sqlite is not a readable SQLite store'
        : e.code === 'ENOTDIR'
          ? 'a file is in the way of the folder'
          : (e.message ?? String(err));
  return new CliError(`cannot use the data folder ${dataDir}: ${why} (choose another with --data-dir DIR or $CFP_DATA_DIR)`, EXIT.dataDir);
}

export function isStoreFault(err: unknown): boolean {
  const code = (err as SysError)?.code ?? '';
  return ['EACCES', 'EPERM', 'ENOTDIR', 'EROFS'].includes(code) || SQLITE_STORE_FAULTS.has(code);
}

/** A listen failure in words, with the flag that fixes it. */
export function listenError(host: string, port: number, err: unknown): CliError {
  const code = (err as SysError).code;
  if (code === 'EADDRINUSE') {
    return new CliError(`port ${port} on ${host} is already in use (another chess-footprint, or another program): choose another with --port N (or PORT=N; 0 picks a free one)`, EXIT.port);
  }
  if (code === 'EACCES') return new CliError(`not allowed to listen on port ${port} on ${host} (ports below 1024 need privileges): choose another with --port N`, EXIT.port);
  if (code === 'EADDRNOTAVAIL') return new CliError(`${host} is not an address of this machine: choose another with --host`, EXIT.port);
  return new CliError(`cannot listen on ${host}:${port}: ${(err as Error).message}`, EXIT.port);
}

/** What the user reads for any error that reaches the top of the CLI. */
export function describeCliError(err: unknown): { message: string; exitCode: number } {
  if (err instanceof CliError) return { message: err.message, exitCode: err.exitCode };
  // A bad environment variable or flag value: the message already names each one.
  if (err instanceof ConfigError) return { message: err.message, exitCode: EXIT.usage };
  const e = err as SysError;
  if (e?.code === 'ENOENT' && e.path) return { message: `no such file or folder: ${e.path}`, exitCode: EXIT.usage };
  if (e?.code === 'EISDIR' && e.path) return { message: `${e.path} is a folder, not a file`, exitCode: EXIT.usage };
  if ((e?.code === 'EACCES' || e?.code === 'EPERM') && e.path) return { message: `permission denied: ${e.path}`, exitCode: EXIT.usage };
  return { message: err instanceof Error ? err.message : String(err), exitCode: EXIT.failure };
}

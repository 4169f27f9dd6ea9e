import type { Command } from 'commander';
import { closeAppDeps, createAppDeps } from '../app.js';
import { loadConfig, type Config } from '../config.js';
import { dataDirError, isStoreFault } from './errors.js';
import type { AppDeps, User } from '../context.js';
import { ownerOrNamed } from '../services/accounts/index.js';

export interface StoreOptions {
  dataDir?: string;
  user?: string;
}

/** Adds the options every store-touching command shares. */
export function storeOptions(cmd: Command): Command {
  return cmd
    .option('--data-dir <dir>', 'data folder (default $CFP_DATA_DIR or ~/.chess-footprint)')
    .option('--user <email>', 'act on this account instead of the owner (the first account)');
}

/**
 * Opens the store of `config`; a data folder that cannot be used is a CliError saying which and why.
 * `serving` (serve, mcp): a write lock held by another process is waited on briefly, then answered 503.
 */
export function openApp(config: Config, opts: { serving?: boolean } = {}): AppDeps {
  try {
    return createAppDeps(config, opts);
  } catch (err) {
    if (isStoreFault(err)) throw dataDirError(config.dataDir, err);
    throw err;
  }
}

/** Runs `fn` with the app opened on the data dir, closing it afterwards whatever happens. */
export async function withApp<T>(opts: StoreOptions, fn: (deps: AppDeps) => Promise<T> | T): Promise<T> {
  const deps = openApp(loadConfig({ dataDir: opts.dataDir }));
  try {
    return await fn(deps);
  } finally {
    await closeAppDeps(deps);
  }
}

/** The account a command acts on; exits with a clear message when there is none. */
export function requireAccount(deps: AppDeps, opts: StoreOptions): User {
  const user = ownerOrNamed(deps.store, opts.user);
  if (!user) {
    fail(opts.user ? `no account with email ${opts.user}` : 'this store has no account yet: run `chess-footprint init --name NAME --email EMAIL` (or `demo`)');
  }
  return user;
}

export function fail(message: string, code = 1): never {
  console.error(`error: ${message}`);
  process.exit(code);
}

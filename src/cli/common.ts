import { statSync } from 'node:fs';
import { resolve } from 'node:path';
import type { Command } from 'commander';
import { closeAppDeps, createAppDeps } from '../app.js';
import { loadConfig, type Config } from '../config.js';
import { CliError, dataDirError, EXIT, isStoreFault } from './errors.js';
import { storeFile } from '../store/db.js';
import type { AppDeps, User } from '../context.js';
import { ownerOrNamed, storeCommand } from '../services/accounts/index.js';

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

/**
 * Stops a command that reads a store when the data folder holds none: opening it would create one
 * (folder, database, secret key) as a side effect, somewhere the user did not mean. Names the folder
 * and the commands that make a store, as this installation runs them.
 */
export function requireExistingStore(config: Config): Config {
  try {
    statSync(storeFile(config.dataDir));
  } catch (err) {
    // A folder that cannot be reached at all (a file in the way, no permission) is the usual exit 3 with its reason.
    if ((err as NodeJS.ErrnoException).code !== 'ENOENT') throw dataDirError(config.dataDir, err);
    const dir = resolve(config.dataDir);
    throw new CliError(
      `no store in ${dir}: create one with \`${storeCommand(dir, 'init --name NAME --email EMAIL')}\` (or \`demo\` / \`serve --demo\`), or point --data-dir (or $CFP_DATA_DIR) at an existing one${npmStartStoreHint(dir)}`,
      EXIT.dataDir,
    );
  }
  return config;
}

/**
 * `npm start` keeps its store in `.data` of the clone (package.json's start script), while a command
 * without --data-dir looks in ~/.chess-footprint: when the folder a command runs from holds that store,
 * the error says so, with the option that reaches it (issue 45 item 2).
 */
function npmStartStoreHint(dir: string): string {
  const local = resolve('.data');
  if (local === dir) return '';
  try {
    statSync(storeFile(local));
  } catch {
    return '';
  }
  return `; the store \`npm start\` made here is in ${local}: add \`--data-dir .data\``;
}

/**
 * Runs `fn` with the app opened on the data dir, closing it afterwards whatever happens. Only the
 * commands that make a store (`init`, `demo`) pass `create`; every other one needs an existing store.
 */
export async function withApp<T>(opts: StoreOptions, fn: (deps: AppDeps) => Promise<T> | T, mode: 'existing' | 'create' = 'existing'): Promise<T> {
  const config = loadConfig({ dataDir: opts.dataDir });
  const deps = openApp(mode === 'create' ? config : requireExistingStore(config));
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
    const dir = resolve(deps.config.dataDir);
    fail(opts.user ? `no account with email ${opts.user} in ${dir}` : `the store in ${dir} has no account yet: run \`${storeCommand(dir, 'init --name NAME --email EMAIL')}\` (or \`demo\`)`);
  }
  return user;
}

export function fail(message: string, code = 1): never {
  console.error(`error: ${message}`);
  process.exit(code);
}

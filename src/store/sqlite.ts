import { createRequire } from 'node:module';
import type BetterSqlite3 from 'better-sqlite3';

/**
 * The better-sqlite3 this Node runs: no single release works on Node 20, 22 and 24. 12.x (node::ObjectWrap)
 * aborts the process on Node 24 when a GC finalizes Statements while no Environment is current, as at
 * teardown after many dropped statements, which CLI commands and test workers leave (test/store/sqlite.test.ts):
 * `Assertion failed: (env) != nullptr` in RemoveEnvironmentCleanupHook, since Node 24's ObjectWrap removes a
 * cleanup hook in its destructor (WiseLibs/better-sqlite3#1515, closed without a fix in 12.x). 13.x (Node-API, prebuilt binaries in the package) fixes that, but segfaults on
 * opening a database on Node 20 and on 22 before 22.14 (WiseLibs/better-sqlite3#1514). So 13 where it
 * runs, 12 (`better-sqlite3`, compiled at install) below; drop 12 with Node 20.
 */
export function usesNodeApiBuild(version: string = process.versions.node): boolean {
  const [major, minor] = version.split('.').map(Number);
  return major > 22 || (major === 22 && minor >= 14);
}

const require = createRequire(import.meta.url);

/** The Database class; the same API in both releases (the types are 12's, @types/better-sqlite3). */
export const Database: typeof BetterSqlite3 = require(usesNodeApiBuild() ? 'better-sqlite3-napi' : 'better-sqlite3');
/** A connection (the type of `new Database(file)`). */
export type Database = BetterSqlite3.Database;

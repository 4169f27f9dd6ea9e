import BetterSqlite3 from 'better-sqlite3';

/**
 * better-sqlite3 13: Node-API, prebuilt binaries for eight platforms inside its package, so `npm ci` compiles
 * nothing. It needs Node 22.14 or later (on 20 and on 22 before 22.14 it segfaults opening a database,
 * WiseLibs/better-sqlite3#1514), which `bin/chess-footprint.js` checks before anything loads it. 12.x, the
 * ObjectWrap build, aborted Node 24 at teardown (WiseLibs/better-sqlite3#1515): test/store/sqlite.test.ts.
 */
export const Database: typeof BetterSqlite3 = BetterSqlite3;
/** A connection (the type of `new Database(file)`). */
export type Database = BetterSqlite3.Database;

// Another process holding the store's write lock (issue 37, item 9): opens the store file given as argv[2],
// takes BEGIN IMMEDIATE, says "held" on stdout, and keeps the lock until its stdin closes.
import { Database } from '../../src/store/sqlite.js';

const db = new Database(process.argv[2]);
db.exec('BEGIN IMMEDIATE');
process.stdout.write('held\n');
process.stdin.resume();
process.stdin.on('end', () => {
  db.exec('ROLLBACK');
  db.close();
  process.exit(0);
});

// Child process for the limiter race: opens its own connection to the store and takes N tokens.
import { fixedClock } from '../../src/clock.js';
import { loadConfig } from '../../src/config.js';
import { storeLimiter } from '../../src/limits/limiter.js';
import { openStore } from '../../src/store/db.js';

const [file, countText, rules] = process.argv.slice(2);
const store = openStore(file);
const limiter = storeLimiter(store, loadConfig({}, { CFP_RATE_LIMITS: rules }), fixedClock('2026-01-01T00:00:00Z'));
let ok = 0;
let refused = 0;
for (let i = 0; i < Number(countText); i += 1) {
  try {
    limiter.take('attach', 'user-1');
    ok += 1;
  } catch {
    refused += 1;
  }
}
store.close();
console.log(JSON.stringify({ ok, refused }));

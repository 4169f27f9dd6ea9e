// Child process of the kill-9 test: syncs the owner's lichess connection until it is killed.
import { createAppDeps } from '../../../src/app.js';
import { loadConfig } from '../../../src/config.js';
import { listConnections, syncConnection } from '../../../src/services/sync/index.js';
import { ownerOrNamed } from '../../../src/services/accounts/accounts.js';

const [dataDir, lichessUrl] = process.argv.slice(2);
const deps = createAppDeps(loadConfig({ dataDir }, { CFP_LICHESS_URL: lichessUrl, CFP_RATE_LIMITS: 'off' }));
const user = ownerOrNamed(deps.store)!;
const [conn] = listConnections(deps, user.id, 'siteB');
process.stdout.write('started\n');
await syncConnection(deps, conn, { batchSize: 7 });
process.stdout.write('finished\n');

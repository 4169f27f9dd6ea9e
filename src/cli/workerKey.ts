import type { Command } from 'commander';
import { issueWorkerKey, WorkerKeyError } from '../auth/workerKeys.js';
import { listWorkerKeys, revokeKey } from '../services/workers/index.js';
import { shellWords, storeCommand } from '../services/accounts/index.js';
import { fail, requireAccount, storeOptions, withApp, type StoreOptions } from './common.js';
import { cliCommand } from './banner.js';
import { EXIT } from './errors.js';

/**
 * What to do with a new key on its machine: kept in a file (0600) or the environment, never on a command line, where
 * any local user reads it with `ps` (issue 44 item 7).
 */
export function workerKeyHint(name: string): string {
  return [
    `worker key "${name}": on that machine, save it (the last line below) to a file only you can read, then run`,
    `  ${cliCommand()} worker --server http://HOST:PORT --key-file FILE`,
    `(or put it in $CFP_WORKER_KEY); lichess's fishnet client asks for it on its first run (\`fishnet --endpoint http://HOST:PORT/fishnet\`) and keeps it in its fishnet.ini. HOST:PORT is where this server listens.`,
  ].join('\n');
}

/**
 * `worker-key create|list|revoke` (issue 36): keys for review workers, machines that take the owner's
 * review jobs over lichess's fishnet protocol (lichess's fishnet client, or `chess-footprint worker`). Apart from personal tokens: a worker key opens `/fishnet/*` only.
 */
export function registerWorkerKeyCommands(program: Command): void {
  const cmd = program.command('worker-key').description('keys for review workers (fishnet clients); shown once, stored as fingerprints');
  storeOptions(
    cmd
      .command('create')
      .description('create a worker key and print it alone on the last line of stdout')
      .requiredOption('--name <name>', 'the machine it is for (shown in lists; `worker-key revoke NAME`)'),
  ).action(async (opts: StoreOptions & { name: string }) => {
    await withApp(opts, (deps) => {
      const user = requireAccount(deps, opts);
      try {
        const { key } = issueWorkerKey(deps.store, deps.clock, user.id, opts.name);
        console.error(workerKeyHint(opts.name));
        console.log(key);
      } catch (err) {
        if (err instanceof WorkerKeyError) fail(err.message, EXIT.usage);
        throw err;
      }
    });
  });
  storeOptions(cmd.command('list').description('list worker keys (never the keys): last contact, jobs done, positions per second').option('--json', 'print JSON')).action(
    async (opts: StoreOptions & { json?: boolean }) => {
      await withApp(opts, (deps) => {
        const rows = listWorkerKeys(deps.store, requireAccount(deps, opts).id, Date.now());
        if (opts.json) return console.log(JSON.stringify(rows, null, 2));
        if (!rows.length) return console.error(`no worker keys; \`${storeCommand(deps.config.dataDir, 'worker-key create --name NAME')}\` makes one`);
        for (const r of rows) {
          const pace = r.positionsPerSecond === null ? '' : `  ${r.positionsPerSecond} positions/s`;
          console.log(`${r.name}  ${r.connected ? 'connected' : 'idle     '}  last contact ${r.lastContactAt ?? 'never'}  jobs ${r.jobsDone}  positions ${r.positionsDone}${pace}${r.jobsHeld ? `  working on ${r.jobsHeld}` : ''}`);
        }
      });
    },
  );
  storeOptions(cmd.command('revoke').description('revoke a worker key; refused from its next request on').argument('<name>', 'the name given at create')).action(
    async (name: string, opts: StoreOptions) => {
      await withApp(opts, (deps) => {
        const out = revokeKey(deps.store, deps.clock, requireAccount(deps, opts).id, name);
        if (!out) return fail(`no live worker key named ${JSON.stringify(name)}`);
        const jobs = out.released ? `; ${out.released} job${out.released === 1 ? '' : 's'} it held went back to the queue` : '';
        console.error(`revoked ${name}${jobs}; ${out.openingLines} opening answer${out.openingLines === 1 ? '' : 's'} it left dropped`);
        console.log(
          out.reviews
            ? `${name} made ${out.reviews} review${out.reviews === 1 ? '' : 's'}, kept; to review ${out.reviews === 1 ? 'it' : 'them'} again on this machine: ${storeCommand(deps.config.dataDir, `review --by-key ${shellWords([name])}`)}`
            : `${name} made no review`,
        );
      });
    },
  );
}

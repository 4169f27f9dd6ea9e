import type { Command } from 'commander';
import { issueToken, listTokens, revokeToken } from '../auth/tokens.js';
import { createUser, ownerOrNamed } from '../services/accounts.js';
import { signInLink } from './signInLink.js';
import { fail, requireAccount, storeOptions, withApp, type StoreOptions } from './common.js';

export function registerAccountCommands(program: Command): void {
  storeOptions(
    program
      .command('init')
      .description('create the owner account of an empty store and print a token (last line of stdout)')
      .requiredOption('--name <name>', 'display name')
      .requiredOption('--email <email>', 'email (the weekly report goes there)')
      .option('--chesscom <username>', 'chess.com username')
      .option('--lichess <username>', 'lichess username'),
  ).action(async (opts: StoreOptions & { name: string; email: string; chesscom?: string; lichess?: string }) => {
    await withApp(opts, (deps) => {
      if (ownerOrNamed(deps.store)) fail('this store already has an owner; use `token create` for another token');
      const user = createUser(deps.store, deps.clock, {
        displayName: opts.name,
        email: opts.email,
        usernameSiteA: opts.chesscom ?? null,
        usernameSiteB: opts.lichess ?? null,
      });
      const { token } = issueToken(deps.store, deps.clock, user.id, 'init');
      console.error(`created the owner account ${user.email}; connect sources with \`chess-footprint connect siteA|siteB|fed ID\``);
      const base = deps.config.publicBaseUrl ?? `http://${deps.config.host === '0.0.0.0' ? '127.0.0.1' : deps.config.host}:${deps.config.port}`;
      console.log(`dashboard: ${signInLink(deps, base, user.id)}   (one-time sign-in link, valid 10 minutes, once \`chess-footprint serve\` runs)`);
      console.log(token);
    });
  });

  const token = program.command('token').description('personal access tokens (shown once; only fingerprints are stored)');
  storeOptions(token.command('create').description('create a token and print it alone on stdout').requiredOption('--name <name>', 'what the token is for')).action(
    async (opts: StoreOptions & { name: string }) => {
      await withApp(opts, (deps) => {
        const user = requireAccount(deps, opts);
        console.log(issueToken(deps.store, deps.clock, user.id, opts.name).token);
      });
    },
  );
  storeOptions(token.command('list').description('list tokens (never the secrets)').option('--json', 'print JSON')).action(
    async (opts: StoreOptions & { json?: boolean }) => {
      await withApp(opts, (deps) => {
        const rows = listTokens(deps.store, requireAccount(deps, opts).id);
        if (opts.json) return console.log(JSON.stringify(rows, null, 2));
        for (const r of rows) console.log(`${r.id}  ${r.revokedAt ? 'revoked' : 'active '}  ${r.createdAt}  ${r.name}`);
      });
    },
  );
  storeOptions(token.command('revoke').description('revoke a token; effective on the next request').argument('<id>', 'token id from `token list`')).action(
    async (id: string, opts: StoreOptions) => {
      await withApp(opts, (deps) => {
        if (!revokeToken(deps.store, deps.clock, requireAccount(deps, opts).id, id)) fail(`no active token with id ${id}`);
        console.error(`revoked ${id}`);
      });
    },
  );
}

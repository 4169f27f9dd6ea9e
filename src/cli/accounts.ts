import type { Command } from 'commander';
import { issueToken, listTokens, revokeToken } from '../auth/tokens.js';
import { createUser, ownerOrNamed, storeCommand } from '../services/accounts/index.js';
import { publicBaseUrl } from '../services/common/index.js';
import { claudeDesktopLines } from './banner.js';
import { signInLink, signInLinkNote } from './signInLink.js';
import { fail, requireAccount, storeOptions, withApp, type StoreOptions } from './common.js';
import { EXIT } from './errors.js';

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
      if (ownerOrNamed(deps.store)) fail(`this store already has an owner; \`${storeCommand(deps.config.dataDir, 'token create --name NAME')}\` prints another token`);
      const user = createUser(deps.store, deps.clock, {
        displayName: opts.name,
        email: opts.email,
        usernameSiteA: opts.chesscom ?? null,
        usernameSiteB: opts.lichess ?? null,
      });
      const { token } = issueToken(deps.store, deps.clock, user.id, 'init');
      console.error(`created the owner account ${user.email} in ${deps.config.dataDir}; connect sources with \`${storeCommand(deps.config.dataDir, 'connect siteA|siteB|fed ID')}\`, then \`${storeCommand(deps.config.dataDir, 'sync')}\``);
      console.error(claudeDesktopLines(token, deps.config.dataDir).join('\n'));
      console.log(`dashboard: ${signInLink(deps, publicBaseUrl(deps.config), user.id)}   (works once \`${storeCommand(deps.config.dataDir, 'serve')}\` runs; ${signInLinkNote(deps.config.dataDir)})`);
      console.log(token);
    }, 'create');
  });

  const token = program.command('token').description('personal access tokens (shown once; only fingerprints are stored)');
  storeOptions(
    token
      .command('create')
      .description('create a token and print it alone on stdout')
      .requiredOption('--name <name>', 'what the token is for')
      .option('--expires-in <days>', 'the token stops working after this many days (default: never)'),
  ).action(async (opts: StoreOptions & { name: string; expiresIn?: string }) => {
    const days = opts.expiresIn === undefined ? undefined : Number(opts.expiresIn);
    if (days !== undefined && !(Number.isInteger(days) && days >= 1 && days <= 36_500)) fail('--expires-in takes a whole number of days from 1 to 36500', EXIT.usage);
    await withApp(opts, (deps) => {
      const user = requireAccount(deps, opts);
      const issued = issueToken(deps.store, deps.clock, user.id, opts.name, { expiresInDays: days });
      if (issued.expiresAt) console.error(`expires ${issued.expiresAt}`);
      console.log(issued.token);
    });
  });
  storeOptions(token.command('list').description('list tokens (never the secrets)').option('--json', 'print JSON')).action(
    async (opts: StoreOptions & { json?: boolean }) => {
      await withApp(opts, (deps) => {
        const rows = listTokens(deps.store, requireAccount(deps, opts).id);
        if (opts.json) return console.log(JSON.stringify(rows, null, 2));
        const now = deps.clock.now().toISOString();
        for (const r of rows) {
          const state = r.revokedAt ? 'revoked' : r.expiresAt && r.expiresAt <= now ? 'expired' : 'active ';
          console.log(`${r.id}  ${state}  created ${r.createdAt}  last used ${r.lastUsedAt ?? 'never'}${r.expiresAt ? `  expires ${r.expiresAt}` : ''}  ${r.name}`);
        }
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

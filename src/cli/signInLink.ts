import type { Command } from 'commander';
import { issueSignInCode, SIGN_IN_CODE_TTL_MS } from '../auth/sessions.js';
import type { AppDeps } from '../context.js';
import { storeCommand } from '../services/accounts/index.js';
import { publicBaseUrl } from '../services/common/index.js';
import { liveServe } from '../store/liveServe.js';
import { requireAccount, storeOptions, withApp, type StoreOptions } from './common.js';

/** How long a link works, in words, from the one constant (src/auth/sessions.ts). */
export const SIGN_IN_LINK_LIFE = `${SIGN_IN_CODE_TTL_MS / 60_000} minutes`;

/** A one-time dashboard sign-in link (10 minutes, single use), like a notebook server's token link. */
export function signInLink(deps: AppDeps, baseUrl: string, userId: string): string {
  return `${baseUrl.replace(/\/$/, '')}/?code=${issueSignInCode(deps.store, deps.clock, userId)}`;
}

/** The note beside a printed link: how long it works and the command that prints another for this store. */
export function signInLinkNote(dataDir: string): string {
  return `one-time sign-in link, valid ${SIGN_IN_LINK_LIFE}; \`${storeCommand(dataDir, 'sign-in-link')}\` prints another`;
}

/**
 * `sign-in-link` (issue 45): a new one-time link whenever the last one expired or was used. It points
 * at the `serve` running on this store (its marker, src/store/liveServe.ts), else at the configured
 * address, where it works once `serve` runs.
 */
export function registerSignInLinkCommand(program: Command): void {
  storeOptions(
    program.command('sign-in-link').description(`print a new one-time dashboard sign-in link (valid ${SIGN_IN_LINK_LIFE}, single use) on stdout`),
  ).action(async (opts: StoreOptions) => {
    await withApp(opts, (deps) => {
      const user = requireAccount(deps, opts);
      const live = liveServe(deps.config.dataDir);
      console.log(signInLink(deps, live?.origin ?? publicBaseUrl(deps.config), user.id));
      console.error(
        live
          ? `one-time sign-in link for ${user.email}, valid ${SIGN_IN_LINK_LIFE}`
          : `one-time sign-in link for ${user.email}, valid ${SIGN_IN_LINK_LIFE}; no server runs on this store now: it works once \`${storeCommand(deps.config.dataDir, 'serve')}\` runs at that address`,
      );
    });
  });
}

import { issueSignInCode } from '../auth/sessions.js';
import type { AppDeps } from '../context.js';

/** A one-time dashboard sign-in link (10 minutes, single use), like a notebook server's token link. */
export function signInLink(deps: AppDeps, baseUrl: string, userId: string): string {
  return `${baseUrl.replace(/\/$/, '')}/?code=${issueSignInCode(deps.store, deps.clock, userId)}`;
}

import {
  ClaudeConfig,
  ConnectInput,
  ConnectionList,
  ConnectionRow,
  CreatedToken,
  CreateTokenInput,
  EmailStatus,
  Empty,
  IdInput,
  OpeningTreeInput,
  OpeningTreeView,
  ProviderInput,
  Removed,
  ReviewQueueStatus,
  Revoked,
  SessionList,
  SignedIn,
  SignInInput,
  SyncInput,
  SyncRun,
  TokenList,
  WorkerKeyList,
} from '../../../schemas/settings.js';
import { listSessions, redeemSignInCode, revokeSession, signInWithToken } from '../../auth/sessions.js';
import { issueToken, listTokens, revokeToken } from '../../auth/tokens.js';
import { claudeDesktopConfig } from '../../services/accounts/index.js';
import { ApiError } from '../../errors.js';
import { connectSource, disconnectSource } from '../../services/sync/index.js';
import { SMTP_SETUP_HINT, smtpSettingsFrom } from '../../services/reports/index.js';
import { reviewQueueStatus } from '../../services/review/index.js';
import { listWorkerKeys } from '../../services/workers/index.js';
import { openingTree } from '../../services/stats/index.js';
import { studyGameView } from '../../services/study/index.js';
import { StudyGameView } from '../../../schemas/study.js';
import { peersView } from '../../services/peers/index.js';
import { PeersInput, PeersView } from '../../../schemas/peers.js';
import { callCtx } from '../../context.js';
import { listConnections } from '../../services/sync/index.js';
import type { Connection } from '../../services/sync/index.js';
import { defineSettingsRoute, signedIn, type SettingsRoute } from './route.js';

// In words, since the sign-in page shows them as text (issue 45: the backticks showed); no path of this machine
// goes to a visitor who is not signed in, so the command is named, not spelled out with its folders.
const LINK_REFUSED =
  'That sign-in link has expired or was used already: a link works once, for 10 minutes. For a new one, run the sign-in-link command of chess-footprint on the machine that runs this server (with its --data-dir), or paste a token.';
const TOKEN_REFUSED = 'That token is not valid: it is mistyped, revoked or expired. Paste a live token, or open a sign-in link (the sign-in-link command of chess-footprint prints one).';

const connectionRow = (c: Connection) =>
  ConnectionRow.parse({
    provider: c.provider,
    account: c.externalId,
    hasToken: c.sourceToken !== null && c.sourceToken !== '',
    status: c.status,
    statusMessage: c.statusMessage,
    connectedAt: c.connectedAt,
    lastSyncedAt: c.lastSyncedAt,
  });

/** The settings API, in the order of the OpenAPI document. */
export const SETTINGS_ROUTES: readonly SettingsRoute[] = [
  defineSettingsRoute({
    operationId: 'settings_sign_in',
    summary: 'Sign in to the dashboard',
    description:
      'Exchanges a one-time sign-in code (printed by `serve`, `init` and `sign-in-link` as a link, valid 10 minutes, single use) or a personal access token for an HttpOnly, SameSite=Strict session cookie.',
    method: 'POST',
    path: '/api/v1/settings/session',
    access: 'public',
    input: SignInInput,
    output: SignedIn,
    errors: [400, 401, 403, 415],
    handler: (ctx, input) => {
      const opened =
        input.code !== undefined
          ? redeemSignInCode(ctx.deps.store, ctx.deps.clock, input.code, ctx.userAgent)
          : signInWithToken(ctx.deps.store, ctx.deps.clock, input.token, ctx.userAgent);
      if (!opened) throw new ApiError(401, input.code !== undefined ? LINK_REFUSED : TOKEN_REFUSED);
      ctx.setSessionCookie(opened.secret);
      return {
        account: { displayName: opened.user.displayName, email: opened.user.email },
        via: 'session' as const,
        sessionId: opened.id,
        expiresAt: opened.expiresAt,
      };
    },
  }),
  defineSettingsRoute({
    operationId: 'settings_whoami',
    summary: 'Who is signed in',
    description: 'The account behind the session cookie or bearer token; 401 when neither is valid.',
    method: 'GET',
    path: '/api/v1/settings/session',
    access: 'signed-in',
    input: Empty,
    output: SignedIn,
    errors: [401, 403],
    handler: (ctx) => {
      const user = signedIn(ctx);
      const current = ctx.sessionId ? listSessions(ctx.deps.store, ctx.deps.clock, user.id).find((s) => s.id === ctx.sessionId) : undefined;
      return {
        account: { displayName: user.displayName, email: user.email },
        via: ctx.sessionId ? ('session' as const) : ('token' as const),
        sessionId: ctx.sessionId,
        expiresAt: current?.expiresAt ?? null,
      };
    },
  }),
  defineSettingsRoute({
    operationId: 'settings_sign_out',
    summary: 'Sign out',
    description: 'Ends the current session (revoked in the store) and clears the cookie.',
    method: 'DELETE',
    path: '/api/v1/settings/session',
    access: 'signed-in',
    input: Empty,
    output: Revoked,
    errors: [401, 403],
    handler: (ctx) => {
      if (ctx.sessionId) revokeSession(ctx.deps.store, ctx.deps.clock, signedIn(ctx).id, ctx.sessionId);
      ctx.clearSessionCookie();
      return { revoked: true as const };
    },
  }),
  defineSettingsRoute({
    operationId: 'settings_list_sessions',
    summary: 'List dashboard sessions',
    description: 'The account’s live sign-in sessions, newest first.',
    method: 'GET',
    path: '/api/v1/settings/sessions',
    access: 'signed-in',
    input: Empty,
    output: SessionList,
    errors: [401, 403],
    handler: (ctx) => ({
      sessions: listSessions(ctx.deps.store, ctx.deps.clock, signedIn(ctx).id).map((s) => ({ ...s, current: s.id === ctx.sessionId })),
    }),
  }),
  defineSettingsRoute({
    operationId: 'settings_revoke_session',
    summary: 'Revoke a session',
    description: 'Ends one of the account’s sessions; its next request is signed out. Unknown ids and other accounts’ ids answer 404 alike.',
    method: 'DELETE',
    path: '/api/v1/settings/sessions/{id}',
    access: 'signed-in',
    input: IdInput,
    output: Revoked,
    errors: [401, 403, 404],
    handler: (ctx, input) => {
      if (!revokeSession(ctx.deps.store, ctx.deps.clock, signedIn(ctx).id, input.id)) throw new ApiError(404, 'no live session with that id');
      if (input.id === ctx.sessionId) ctx.clearSessionCookie();
      return { revoked: true as const };
    },
  }),
  defineSettingsRoute({
    operationId: 'settings_list_tokens',
    summary: 'List personal access tokens',
    description: 'Every token of the account with its name and dates (never the secret).',
    method: 'GET',
    path: '/api/v1/settings/tokens',
    access: 'signed-in',
    input: Empty,
    output: TokenList,
    errors: [401, 403],
    handler: (ctx) => ({ tokens: listTokens(ctx.deps.store, signedIn(ctx).id) }),
  }),
  defineSettingsRoute({
    operationId: 'settings_create_token',
    summary: 'Create a personal access token',
    description: 'Creates a token for API and MCP access. The answer carries the token itself, this once: only its fingerprint is stored.',
    method: 'POST',
    path: '/api/v1/settings/tokens',
    access: 'signed-in',
    input: CreateTokenInput,
    output: CreatedToken,
    status: 201,
    errors: [400, 401, 403, 415],
    handler: (ctx, input) => {
      const t = issueToken(ctx.deps.store, ctx.deps.clock, signedIn(ctx).id, input.name);
      return { id: t.id, name: t.name, createdAt: t.createdAt, token: t.token };
    },
  }),
  defineSettingsRoute({
    operationId: 'settings_revoke_token',
    summary: 'Revoke a personal access token',
    description: 'Revokes one of the account’s tokens; its next request answers 401. Unknown ids and other accounts’ ids answer 404 alike.',
    method: 'DELETE',
    path: '/api/v1/settings/tokens/{id}',
    access: 'signed-in',
    input: IdInput,
    output: Revoked,
    errors: [401, 403, 404],
    handler: (ctx, input) => {
      if (!revokeToken(ctx.deps.store, ctx.deps.clock, signedIn(ctx).id, input.id)) throw new ApiError(404, 'no active token with that id');
      return { revoked: true as const };
    },
  }),
  defineSettingsRoute({
    operationId: 'settings_list_connections',
    summary: 'List source connections',
    description: 'chess.com, lichess and ECF connections with their sync status (a lichess token is reported as present, never returned).',
    method: 'GET',
    path: '/api/v1/settings/connections',
    access: 'signed-in',
    input: Empty,
    output: ConnectionList,
    errors: [401, 403],
    handler: (ctx) => ({ connections: listConnections(ctx.deps, signedIn(ctx).id).map(connectionRow) }),
  }),
  defineSettingsRoute({
    operationId: 'settings_connect_source',
    summary: 'Add or change a source connection',
    description:
      'Connects chess.com (siteA) or lichess (siteB) by username, or the ECF (fed) by rating code; the lichess connection takes an optional API token. Pointing a source at another account restarts its sync cursor; stored games stay.',
    method: 'PUT',
    path: '/api/v1/settings/connections/{provider}',
    access: 'signed-in',
    input: ConnectInput,
    output: ConnectionRow,
    errors: [400, 401, 403, 415],
    handler: (ctx, input) => connectionRow(connectSource(ctx.deps, signedIn(ctx).id, input.provider, input.account, input.token === '' ? null : input.token)),
  }),
  defineSettingsRoute({
    operationId: 'settings_remove_connection',
    summary: 'Remove a source connection',
    description: 'Stops syncing a source. The games it brought stay in the store.',
    method: 'DELETE',
    path: '/api/v1/settings/connections/{provider}',
    access: 'signed-in',
    input: ProviderInput,
    output: Removed,
    errors: [400, 401, 403, 404],
    handler: (ctx, input) => {
      if (!disconnectSource(ctx.deps, signedIn(ctx).id, input.provider)) throw new ApiError(404, `no ${input.provider} connection`);
      return { removed: true as const };
    },
  }),
  defineSettingsRoute({
    operationId: 'settings_sync_now',
    summary: 'Sync now',
    description: 'Starts syncing every connection (or one source) in the background and answers 202 at once; poll GET /api/v1/settings/sync for progress.',
    method: 'POST',
    path: '/api/v1/settings/sync',
    access: 'signed-in',
    input: SyncInput,
    output: SyncRun,
    status: 202,
    errors: [400, 401, 403, 409, 415],
    handler: (ctx, input) => ctx.syncRuns.start(signedIn(ctx).id, input.provider),
  }),
  defineSettingsRoute({
    operationId: 'settings_sync_status',
    summary: 'Sync progress',
    description: 'The account’s latest “sync now” run: running with its progress, or done with one result per source.',
    method: 'GET',
    path: '/api/v1/settings/sync',
    access: 'signed-in',
    input: Empty,
    output: SyncRun,
    errors: [401, 403],
    handler: (ctx) => ctx.syncRuns.get(signedIn(ctx).id),
  }),
  defineSettingsRoute({
    operationId: 'settings_review_queue',
    summary: 'Review queue status',
    description: 'The account’s engine reviews by state, and the place of each queued one in the shared queue.',
    method: 'GET',
    path: '/api/v1/settings/reviews',
    access: 'signed-in',
    input: Empty,
    output: ReviewQueueStatus,
    errors: [401, 403],
    handler: (ctx) => reviewQueueStatus(ctx.deps, signedIn(ctx).id),
  }),
  defineSettingsRoute({
    operationId: 'settings_worker_keys',
    summary: 'Review workers',
    description:
      'The account’s review workers (machines running a fishnet client with a worker key: `chess-footprint worker-key create --name NAME`): last contact, reviews stored, positions per second, reviews in hand. Never the keys.',
    method: 'GET',
    path: '/api/v1/settings/workers',
    access: 'signed-in',
    input: Empty,
    output: WorkerKeyList,
    errors: [401, 403],
    handler: (ctx) => ({ workers: listWorkerKeys(ctx.deps.store, signedIn(ctx).id, Date.now(), { revoked: true }) }),
  }),
  defineSettingsRoute({
    operationId: 'settings_opening_tree',
    summary: 'Opening tree of my own games',
    description:
      "The dashboard's view of the chess-footprint://openings/{colour} MCP resource (one computation): after moves, every next move the owner's games with that colour played, with games, results, score, accuracy and the evaluation after it from reviewed games. Not an MCP tool.",
    method: 'GET',
    path: '/api/v1/settings/openings/{colour}',
    access: 'signed-in',
    input: OpeningTreeInput,
    output: OpeningTreeView,
    errors: [400, 401, 403],
    handler: (ctx, input) => openingTree({ ...callCtx(ctx.deps, signedIn(ctx), { surface: 'rest', key: 'settings' }), user: signedIn(ctx) }, input.colour, input.moves ?? ''),
  }),
  defineSettingsRoute({
    operationId: 'settings_study_game',
    summary: 'One study game with its moves and notes',
    description:
      "The dashboard's study game page: the row list_study_games shows, the PGN as uploaded, the owner's notes by ply, and the stored review's per-ply figures once request_study_analysis has completed. 404 for an id the owner does not hold. Not an MCP tool.",
    method: 'GET',
    path: '/api/v1/settings/study/{id}',
    access: 'signed-in',
    input: IdInput,
    output: StudyGameView,
    errors: [400, 401, 403, 404],
    handler: (ctx, input) => studyGameView({ ...callCtx(ctx.deps, signedIn(ctx), { surface: 'rest', key: 'settings' }), user: signedIn(ctx) }, input.id),
  }),
  defineSettingsRoute({
    operationId: 'settings_opening_peers',
    summary: 'My openings beside players at my level',
    description:
      "The dashboard's view of the chess-footprint://openings/{colour}/peers MCP resource (one computation): the owner's moves in their most-reached positions beside lichess's opening explorer at their rating band, the position after moves, and ranked findings. Reading it starts the fetch of what is missing (needs the owner's lichess token). Not an MCP tool.",
    method: 'GET',
    path: '/api/v1/settings/openings/{colour}/peers',
    access: 'signed-in',
    input: PeersInput,
    output: PeersView,
    errors: [400, 401, 403, 429],
    handler: (ctx, input) =>
      peersView({ ...callCtx(ctx.deps, signedIn(ctx), { surface: 'rest', key: 'settings' }), user: signedIn(ctx) }, input.colour, {
        moves: input.moves,
        band: input.band,
        timeClass: input.timeClass,
        masters: input.masters === 'true',
      }),
  }),
  defineSettingsRoute({
    operationId: 'settings_claude_config',
    summary: 'Claude Desktop configuration',
    description: 'claude_desktop_config.json for stdio and for HTTP to this server, with a placeholder where a token goes.',
    method: 'GET',
    path: '/api/v1/settings/claude-config',
    access: 'signed-in',
    input: Empty,
    output: ClaudeConfig,
    errors: [401, 403],
    handler: (ctx) => {
      const mcpUrl = `${ctx.baseUrl}/api/mcp`;
      return { mcpUrl, ...claudeDesktopConfig({ mcpUrl, dataDir: ctx.deps.config.dataDir }) };
    },
  }),
  defineSettingsRoute({
    operationId: 'settings_email_status',
    summary: 'Email settings status',
    description: 'Whether the weekly report can be emailed (SMTP from the environment) and to whom; never the password.',
    method: 'GET',
    path: '/api/v1/settings/email',
    access: 'signed-in',
    input: Empty,
    output: EmailStatus,
    errors: [401, 403],
    handler: (ctx) => {
      const smtp = smtpSettingsFrom(ctx.deps.config.smtp);
      return {
        configured: smtp !== null,
        host: smtp?.host ?? null,
        port: smtp?.port ?? null,
        tls: smtp?.tls ?? null,
        from: smtp?.from ?? null,
        authenticated: Boolean(smtp?.user),
        recipient: signedIn(ctx).email,
        setup: smtp ? null : SMTP_SETUP_HINT,
      };
    },
  }),
];

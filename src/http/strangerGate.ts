import type { IncomingMessage, ServerResponse } from 'node:http';
import { SESSION_COOKIE } from '../auth/sessions.js';
import { bearerToken, TOKEN_PATTERN, verifyToken } from '../auth/tokens.js';
import { isRevokedWorkerKey, verifyWorkerKey, WORKER_KEY_PATTERN } from '../auth/workerKeys.js';
import type { AppDeps } from '../context.js';
import { Messages } from '../errors.js';
import { JSON_BODY_LIMIT_BYTES, prepareRefusal } from '../facade/http.js';
import { ANONYMOUS_MCP_BODY_LIMIT_BYTES, anonymousOversizeMessage, hostnameOf } from '../mcp/http.js';
import { FishnetRefusals } from './fishnet.js';
import type { FrontHandler } from './front.js';
import { routePattern } from './pathMatch.js';
import type { SettingsRoute } from './settings/route.js';
import type { RefuseStranger } from './strangerPace.js';
import { readCookie } from './sessionAuth.js';

// The routes express serves that a stranger may not use, as express matches them (pathMatch.ts: case
// ignored, one trailing slash): fishnet's keyed routes (fishnet.ts; `GET /fishnet/key/:key`, the legacy
// check, takes no key), and MCP's one POST route (src/mcp/http.ts).
const FISHNET_GET = /^\/fishnet\/(?:key|status)\/?$/i;
const FISHNET_POST = /^\/fishnet\/(?:acquire|analysis\/[^/]+|abort\/[^/]+|leave)\/?$/i;
const MCP = /^\/api\/mcp\/?$/i;
const SETTINGS_SPACE = /^\/api\/v1\/(?:settings|prep)(?:\/|$)/i;
/** The body type body-parser's JSON parser reads (MCP's: express.json's default type). */
const JSON_TYPE = /^application\/json\s*(?:;|$)/i;

/**
 * Strangers refused on node:http, before the express app (issue 44 item 2). The routes behind express
 * (fishnet, the settings and prep API, MCP) already refused a caller without a credential before reading
 * its body, but only after express's per-request machinery and routing: under a flood of strangers
 * sending megabyte bodies, that was most of the server's cost per stranger. Here a request on one of
 * those routes whose credential is missing or verifies nobody gets the route's own refusal, the same
 * status, headers and body (encoded once, at start), with its connection closed unread. A request this
 * cannot settle cheaply goes on to its route, which decides as before: a session cookie (the route checks
 * its origin first), an MCP message small enough to be read without a token, a live credential. `route` is
 * the express app, for the one request this hands on later (a chunked anonymous MCP message); `sendRefusal`
 * sends a refusal at the pace strangers are allowed (strangerPace.ts).
 *
 * An unknown well-formed token costs its fingerprint and one indexed read (src/auth/tokens.ts): no
 * negative cache, so a token issued a moment ago, in any process, is never refused.
 * The REST facade refuses its strangers itself, already on node:http (rest.ts); this runs after it.
 */
export function strangerGate(
  deps: AppDeps,
  settingsRoutes: readonly SettingsRoute[],
  route: (req: IncomingMessage, res: ServerResponse) => void,
  sendRefusal: RefuseStranger,
): FrontHandler {
  const noStore: [string, string] = ['Cache-Control', 'no-store'];
  const bearer: [string, string] = ['WWW-Authenticate', 'Bearer'];
  const fishnetUnknown = prepareRefusal(401, FishnetRefusals.keyRequired, [noStore]);
  const fishnetPersonal = prepareRefusal(403, FishnetRefusals.personalToken, [noStore]);
  const fishnetRevoked = prepareRefusal(403, FishnetRefusals.revoked, [noStore]);
  const settingsStranger = prepareRefusal(401, Messages.unauthorized, [bearer]);
  const mcpStranger = prepareRefusal(401, anonymousOversizeMessage, [noStore, bearer]);
  const signedIn = settingsRoutes
    .map((route) => ({ method: route.method, pattern: routePattern(route.path), signedIn: route.access === 'signed-in' }));
  const allowedHosts = new Set(deps.config.allowedHosts.map((h) => h.toLowerCase()));

  return (req, res, { path }) => {
    const method = req.method === 'HEAD' ? 'GET' : req.method;
    const authorization = req.headers.authorization;
    if (method === 'POST' ? FISHNET_POST.test(path) : method === 'GET' && FISHNET_GET.test(path)) {
      // As fishnet.ts's `authorised`: a personal token is refused 403, a revoked key 403, anything else unknown 401.
      const key = bearerToken(authorization);
      if (key === undefined || (!WORKER_KEY_PATTERN.test(key) && !TOKEN_PATTERN.test(key))) sendRefusal(req, res, fishnetUnknown);
      else if (TOKEN_PATTERN.test(key)) sendRefusal(req, res, fishnetPersonal);
      else if (verifyWorkerKey(deps.store, key)) return false;
      else sendRefusal(req, res, isRevokedWorkerKey(deps.store, key) ? fishnetRevoked : fishnetUnknown);
      return true;
    }
    if (method === 'POST' && MCP.test(path)) {
      // Only what src/mcp/http.ts would refuse 401, on an allowed Host without an Origin (the route's origin
      // guard answers those) and without a live token: a declared body past the anonymous allowance and within
      // the body limit (past it: 413) before reading; a chunked JSON one once more than the allowance has come.
      if (req.headers.origin !== undefined || !allowedHosts.has(hostnameOf(req.headers.host ?? ''))) return false;
      const length = req.headers['content-length'];
      const declared = Number(length);
      const chunked = length === undefined && req.headers['transfer-encoding'] !== undefined && JSON_TYPE.test(req.headers['content-type'] ?? '');
      if (!chunked && !(declared > ANONYMOUS_MCP_BODY_LIMIT_BYTES && declared <= JSON_BODY_LIMIT_BYTES)) return false;
      if (authorization !== undefined && verifyToken(deps.store, bearerToken(authorization), deps.clock)) return false;
      if (!chunked) sendRefusal(req, res, mcpStranger);
      // The body bytes that came with the head are parsed once this listener returns: by the next turn they
      // wait, unread, in the request. Past the allowance already: refused without express. Otherwise the
      // route reads the message (and still refuses it at the allowance, src/mcp/http.ts).
      else setImmediate(() => (req.readableLength > ANONYMOUS_MCP_BODY_LIMIT_BYTES ? sendRefusal(req, res, mcpStranger) : route(req, res)));
      return true;
    }
    if (!SETTINGS_SPACE.test(path)) return false;
    for (const route of signedIn) {
      if (route.method !== method || !route.pattern.test(path)) continue;
      // As settings/router.ts: a session cookie is the route's to check (origin first); a bearer token is verified (without the app clock, as there).
      if (!route.signedIn || (authorization === undefined && readCookie(req, SESSION_COOKIE) !== undefined)) return false;
      if (authorization !== undefined && verifyToken(deps.store, bearerToken(authorization))) return false;
      sendRefusal(req, res, settingsStranger);
      return true;
    }
    return false;
  };
}

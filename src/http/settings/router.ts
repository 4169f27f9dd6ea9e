import express, { type NextFunction, type Request, type Response, type Router } from 'express';
import { pathParams } from '../../../tools/defineTool.js';
import { bearerToken, verifyToken } from '../../auth/tokens.js';
import type { AppDeps, User } from '../../context.js';
import { ApiError, asApiError, describeIssues, Messages } from '../../errors.js';
import { zodJsonSchema } from '../../../tools/jsonSchema.js';
import { expressPath } from '../pathMatch.js';
import { hasBody, refuseBeforeBody, verifyDepth } from '../../facade/http.js';
import { clearedSessionCookie, crossOriginMessage, fromAnotherSite, sameOrigin, sessionCookie } from '../sessionAuth.js';
import type { SettingsCtx, SettingsRoute } from './route.js';
import type { SyncRuns } from './syncRuns.js';

/** Settings bodies are a name, a username or a token: a few kilobytes at most, unless the route says more (route.ts `bodyLimit`). */
export const SETTINGS_BODY_LIMIT_BYTES = 16 * 1024;

function fail(res: Response, status: number, message: string, headers: Record<string, string> = {}): void {
  res.status(status).set(headers).json({ error: message });
}

/**
 * The settings API (/api/v1/settings/…), derived from the route list like the REST facade is from
 * the tools: a session cookie (origin-checked by sessionCookieAuth, mounted before this router) or a
 * bearer token authenticates; input is validated
 * once with the route's zod schema; errors are `{error}` with their status.
 */
export function settingsRouter(routes: readonly SettingsRoute[], deps: AppDeps, baseUrl: string, syncRuns: SyncRuns): Router {
  const router = express.Router();
  const secure = baseUrl.startsWith('https:');
  for (const route of routes) {
    const method = route.method.toLowerCase() as 'get' | 'post' | 'put' | 'delete';
    const params = pathParams(route.path);
    const takesBody = route.method === 'POST' || route.method === 'PUT';
    const bodyLimit = route.bodyLimit ?? SETTINGS_BODY_LIMIT_BYTES;
    const tooLarge = `the request body exceeds ${bodyLimit} bytes, this route's limit`;
    const parse = express.json({ limit: bodyLimit, type: () => true, verify: verifyDepth });
    // The route's own limit, named in its 413 (the app-wide handler would name the REST facade's).
    const json = (req: Request, res: Response, next: NextFunction) => {
      if (Number(req.headers['content-length']) > bodyLimit) return fail(res.set('Connection', 'close'), 413, tooLarge);
      parse(req, res, (err?: unknown) => {
        if ((err as { type?: string } | undefined)?.type === 'entity.too.large') return fail(res, 413, tooLarge);
        next(err);
      });
    };
    // A GET's fields that are not in its path come in the query string (text only).
    const queryFields = takesBody ? new Set<string>() : new Set(Object.keys(zodJsonSchema(route.input, 'input').properties ?? {}).filter((k) => !params.includes(k)));
    router[method](
      expressPath(route.path),
      (req: Request, res: Response, next: NextFunction) => {
        // Sign-in sets a cookie: a browser on another origin may not ask for one (login CSRF), whether
        // it says so by Origin or only by Fetch Metadata.
        if (route.access === 'public' && ((req.headers.origin !== undefined && !sameOrigin(req, baseUrl)) || fromAnotherSite(req))) return refuseBeforeBody(req, res, 403, crossOriginMessage);
        // Who is asking, before the body is read (issue 44 item 2): a stranger's body is neither read nor parsed.
        let user: User | null = res.locals.session?.user ?? null;
        if (!user && req.headers.authorization !== undefined) user = verifyToken(deps.store, bearerToken(req.headers.authorization));
        if (route.access === 'signed-in' && !user) return refuseBeforeBody(req, res, 401, Messages.unauthorized, { 'WWW-Authenticate': 'Bearer' });
        res.locals.user = user;
        if (takesBody && hasBody(req) && !req.is('application/json')) return fail(res, 415, 'Content-Type must be application/json');
        if (!takesBody && hasBody(req)) return fail(res, 400, `${route.method} takes no request body`);
        const unexpected = Object.keys(req.query).filter((k) => !queryFields.has(k) || typeof req.query[k] !== 'string');
        if (unexpected.length) return fail(res, 400, `unexpected query parameter(s): ${unexpected.join(', ')}`);
        next();
      },
      ...(takesBody ? [json] : []),
      async (req: Request, res: Response) => {
        const user: User | null = res.locals.user;
        const sessionId: string | null = res.locals.session?.sessionId ?? null;
        try {
          // Every signed-in route spends the owner's personal bucket, as every tool call does (issue 37):
          // 429 when it is empty, 503 when the limiter cannot be reached, and nothing runs.
          if (user) deps.limiter.take('personal', user.id);
        } catch (err) {
          const known = asApiError(err);
          if (known) return fail(res, known.status, known.message, known.headers);
          throw err;
        }
        const body: unknown = takesBody && hasBody(req) ? req.body : {};
        if (body === null || typeof body !== 'object' || Array.isArray(body)) return fail(res, 400, 'the body must be a JSON object');
        const clash = params.find((p) => p in body);
        if (clash) return fail(res, 400, `unexpected field(s): ${clash} (it belongs in the path)`);
        const input: Record<string, unknown> = takesBody ? { ...body } : { ...req.query };
        for (const p of params) input[p] = req.params[p];
        const parsed = route.input.safeParse(input);
        if (!parsed.success) return fail(res, 400, describeIssues(parsed.error));
        const ctx: SettingsCtx = {
          deps,
          user,
          sessionId,
          userAgent: req.headers['user-agent'] ?? null,
          baseUrl,
          syncRuns,
          setSessionCookie: (value) => void res.append('Set-Cookie', sessionCookie(value, secure)),
          clearSessionCookie: () => void res.append('Set-Cookie', clearedSessionCookie(secure)),
        };
        try {
          const result = await route.handler(ctx, parsed.data);
          // Nothing the settings API answers may be cached: tokens are shown once, statuses change.
          res.status(route.status ?? 200).set('Cache-Control', 'no-store').json(result);
        } catch (err) {
          const known = asApiError(err);
          if (known) return fail(res, known.status, known.message, known.headers);
          console.error(`[${route.operationId}]`, err);
          fail(res, 500, 'internal error; the server log has details');
        }
      },
    );
  }
  return router;
}

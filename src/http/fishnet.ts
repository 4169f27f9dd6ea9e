import express, { type NextFunction, type Request, type Response, type Router } from 'express';
import { FishnetQuery } from '../../schemas/fishnet.js';
import { bearerToken, TOKEN_PATTERN } from '../auth/tokens.js';
import { isRevokedWorkerKey, verifyWorkerKey, type WorkerKeyHolder } from '../auth/workerKeys.js';
import type { AppDeps } from '../context.js';
import { nestsDeeperThan, refuseBeforeBody, refusedOversize, tooDeepMessage, verifyDepth } from '../facade/http.js';
import { abortWork, acquireWork, describeProtocolIssues, holdsJob, leaveWork, notHeld, queueStatus, refusalWaitSeconds, refuseUnreadable, submitAnalysis, touchKey, type WorkerCall } from '../services/workers/index.js';

/**
 * A whole analysis: one entry per position of a long game (600 positions, each with a PV of a few dozen
 * moves, is about 150 KB); a body past this is refused with 413 before it is parsed.
 */
export const FISHNET_BODY_LIMIT_BYTES = 1024 * 1024;

/** The refusals of a request without a worker key that opens these routes (also sent by src/http/strangerGate.ts). */
export const FishnetRefusals = {
  keyRequired: 'a worker key is required (Authorization: Bearer KEY; `chess-footprint worker-key create --name NAME` makes one)',
  personalToken: 'a personal token opens no /fishnet/ route: create a worker key (`chess-footprint worker-key create --name NAME`)',
  revoked: 'this worker key was revoked',
} as const;

function fail(res: Response, status: number, error: string): void {
  res.status(status).json({ error });
}

/**
 * lichess's fishnet protocol under `/fishnet/` (issue 36; fishnet doc/protocol.md and src/api.rs for the
 * statuses and bodies, schemas/fishnet.ts for their one declaration): a review worker (the stock fishnet
 * client, or `chess-footprint worker`) takes its owner's review jobs and submits their analyses. Only a
 * worker key opens these routes (src/auth/workerKeys.ts), and a worker key opens nothing else. The
 * statuses are the protocol's: 401 for an unknown key, 403 for a disabled one (a revoked key, or a
 * personal token: not a worker's), 204 for no work, 202 for work.
 */
export function fishnetRouter(deps: AppDeps): Router {
  const router = express.Router();
  const json = express.json({ limit: FISHNET_BODY_LIMIT_BYTES, type: () => true, verify: verifyDepth });
  // A submission's body is read as text and parsed here, so that one which is not JSON still reaches its job (refused, the job put back).
  const text = express.text({ limit: FISHNET_BODY_LIMIT_BYTES, type: () => true });
  router.use('/fishnet', (_req, res, next) => {
    res.setHeader('Cache-Control', 'no-store');
    next();
  });

  /**
   * The worker key of a request (Authorization: Bearer), or the refusal already sent. It is checked before
   * any body is read (issue 44 item 2): a request without a valid key is answered at once, its body neither
   * read nor parsed, and its connection closed rather than drained. A key in the body (fishnet's older
   * `fishnet.apikey`) is therefore not read: the body is not looked at until the key is known.
   */
  const oversize = `the request body exceeds ${FISHNET_BODY_LIMIT_BYTES} bytes`;
  const authorised = (req: Request, res: Response): WorkerCall | null => {
    const key = bearerToken(req.headers.authorization);
    const holder: WorkerKeyHolder | null = verifyWorkerKey(deps.store, key);
    if (!holder) {
      if (key && TOKEN_PATTERN.test(key)) refuseBeforeBody(req, res, 403, FishnetRefusals.personalToken);
      else if (key && isRevokedWorkerKey(deps.store, key)) refuseBeforeBody(req, res, 403, FishnetRefusals.revoked);
      else refuseBeforeBody(req, res, 401, FishnetRefusals.keyRequired);
      return null;
    }
    const call: WorkerCall = { store: deps.store, clock: deps.clock, settings: deps.config.reviewWorkers, holder, userAgent: String(req.headers['user-agent'] ?? '') };
    touchKey(call);
    return call;
  };
  /** `authorised` as the first step of a route, ahead of its body parser: the call goes in `res.locals.call`. */
  const keyFirst = (req: Request, res: Response, next: NextFunction) => {
    const call = authorised(req, res);
    if (!call) return;
    res.locals.call = call;
    next();
  };

  const query = (req: Request, res: Response): { slow: boolean; stop: boolean } | null => {
    const parsed = FishnetQuery.safeParse(req.query);
    if (!parsed.success) {
      fail(res, 400, `query: ${describeProtocolIssues(parsed.error)} (slow and stop take true or false)`);
      return null;
    }
    return { slow: parsed.data.slow === 'true', stop: parsed.data.stop === 'true' };
  };

  router.get('/fishnet/key', keyFirst, (_req, res) => {
    res.status(204).end();
  });
  // The legacy key check (the key in the path): 200 valid, 404 otherwise, as the protocol's older form.
  router.get('/fishnet/key/:key', (req, res) => {
    if (verifyWorkerKey(deps.store, req.params.key)) res.status(200).json({});
    else fail(res, 404, 'no such worker key');
  });
  router.get('/fishnet/status', keyFirst, (_req, res) => {
    res.json(queueStatus(res.locals.call as WorkerCall));
  });
  router.post('/fishnet/acquire', keyFirst, json, (req, res) => {
    const call = res.locals.call as WorkerCall;
    const q = query(req, res);
    if (!q) return;
    const wait = refusalWaitSeconds(call);
    if (wait > 0) {
      res.setHeader('Retry-After', String(wait));
      return fail(res, 429, `this key's last submissions were refused; it gets work again in ${wait} s`);
    }
    const work = acquireWork(call, q.slow);
    if (work) res.status(202).json(work);
    else res.status(204).end();
  });
  /**
   * A submission for a job the key does not hold is refused before its body is read: the body could change nothing.
   * A declared size past the limit is still the 413 it was (the body parser's answer, given unread).
   */
  const heldFirst = (req: Request, res: Response, next: NextFunction) => {
    const id = String(req.params.id);
    if (refusedOversize(req, res, FISHNET_BODY_LIMIT_BYTES, oversize)) return;
    if (holdsJob(res.locals.call as WorkerCall, id)) return next();
    refuseBeforeBody(req, res, 404, notHeld(id).error);
  };
  router.post('/fishnet/analysis/:id', keyFirst, heldFirst, text, async (req, res) => {
    const call = res.locals.call as WorkerCall;
    const q = query(req, res);
    if (!q) return;
    let body: unknown;
    let readable = true;
    const raw = typeof req.body === 'string' ? req.body : '';
    try {
      // Nesting past the bound is unreadable like any other non-JSON: refused, and the job put back.
      if (nestsDeeperThan(Buffer.from(raw))) throw new Error(tooDeepMessage);
      body = JSON.parse(raw);
    } catch {
      readable = false;
    }
    const out = readable ? await submitAnalysis(call, String(req.params.id), body, q) : refuseUnreadable(call, String(req.params.id));
    if (out.status === 204) res.status(204).end();
    else if (out.status === 202) res.status(202).json(out.next);
    else {
      if (out.status === 503) res.setHeader('Retry-After', '5');
      fail(res, out.status, out.error);
    }
  });
  router.post('/fishnet/abort/:id', keyFirst, json, (req, res) => {
    const call = res.locals.call as WorkerCall;
    if (abortWork(call, String(req.params.id))) res.status(204).end();
    else fail(res, 404, `this key holds no job ${String(req.params.id).slice(0, 24)}`);
  });
  // Not lichess's protocol: chess-footprint's own worker says it is stopping (a stock fishnet client aborts its jobs,
  // which says the same), so the owner sees the machine gone at once rather than two minutes later (issue 45 item 6).
  router.post('/fishnet/leave', keyFirst, json, (_req, res) => {
    leaveWork(res.locals.call as WorkerCall);
    res.status(204).end();
  });
  // Bodies this router parses: refused with the protocol's statuses. Anything else goes on to the app's last
  // resort (src/http/app.ts), which answers a busy store (src/store/busy.ts) with 503 + Retry-After as every
  // facade does: nothing was changed, and the worker asks again (fishnet backs off on any failure).
  router.use('/fishnet', (err: unknown, _req: Request, res: Response, next: NextFunction) => {
    const e = err as { type?: string; status?: number };
    if (e?.type === 'entity.too.large') return fail(res, 413, oversize);
    if (e?.type === 'entity.parse.failed') return fail(res, 400, 'the body is not valid JSON');
    if (e?.type === 'entity.too.deep') return fail(res, 400, tooDeepMessage);
    if (typeof e?.status === 'number' && e.status >= 400 && e.status < 500) return fail(res, e.status, 'bad request body');
    next(err);
  });
  return router;
}

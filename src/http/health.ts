import express, { type Router } from 'express';
import { bearerToken, verifyToken } from '../auth/tokens.js';
import type { AppDeps } from '../context.js';
import { Messages } from '../errors.js';
import { packageJson } from '../paths.js';
import { connectedWorkers } from '../services/review/index.js';

/**
 * `GET /health` for a supervisor or a load balancer. Without a token it says up or down and nothing else: no
 * counts, which would tell anyone how busy the server's owners are or that someone runs a worker (issue 44 item 4).
 * With an owner's token (Authorization: Bearer) it adds the engine and that owner's own figures: their reviews
 * waiting and their connected review workers. 200 when the store answers a query, 503 when it does not.
 */
export function healthRouter(deps: AppDeps): Router {
  const router = express.Router();
  router.get('/health', (req, res) => {
    res.set('Cache-Control', 'no-store');
    const token = bearerToken(req.headers.authorization);
    let store: 'ok' | 'unavailable' = 'ok';
    let owner: ReturnType<typeof verifyToken> = null;
    let figures: { reviewsPending: number; reviewWorkersConnected: number } | null = null;
    try {
      // One read through the same connection requests use: proves the file is open and readable.
      deps.store.sqlite.prepare('SELECT 1').get();
      owner = token ? verifyToken(deps.store, token, deps.clock) : null;
      if (owner) {
        const pending = deps.store.sqlite.prepare("SELECT count(*) AS n FROM review_jobs WHERE user_id = ? AND status IN ('queued', 'running')").get(owner.id) as { n: number };
        // Review workers on the fishnet protocol (issue 36) heard from in the last two minutes and not stopped since.
        figures = { reviewsPending: pending.n, reviewWorkersConnected: connectedWorkers(deps.store, owner.id, Date.now()) };
      }
    } catch {
      store = 'unavailable';
    }
    const up = { status: store === 'ok' ? ('ok' as const) : ('degraded' as const), version: packageJson.version, store };
    if (store === 'ok' && token && !owner) return res.status(401).json({ error: Messages.unauthorized });
    if (!figures) return res.status(store === 'ok' ? 200 : 503).json(up);
    const engine = { kind: deps.config.engine.path ? ('native' as const) : ('wasm' as const), workers: deps.config.engine.workers, nodesPerPosition: deps.config.engine.nodesPerPosition, ...figures };
    res.status(200).json({ ...up, engine });
  });
  return router;
}

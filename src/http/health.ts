import express, { type Router } from 'express';
import type { AppDeps } from '../context.js';
import { packageJson } from '../paths.js';
import { connectedWorkers } from '../services/review/index.js';

/**
 * `GET /health` for a supervisor or a load balancer: no token, nothing personal (no names, paths,
 * counts of anyone's games). 200 when the store answers a query, 503 when it does not.
 */
export function healthRouter(deps: AppDeps): Router {
  const router = express.Router();
  router.get('/health', (_req, res) => {
    let store: 'ok' | 'unavailable' = 'ok';
    let queued: number | null = null;
    let workersConnected: number | null = null;
    try {
      // One read through the same connection requests use: proves the file is open and readable.
      queued = (deps.store.sqlite.prepare("SELECT count(*) AS n FROM review_jobs WHERE status IN ('queued', 'running')").get() as { n: number }).n;
      // A count only: which keys, and whose, is the owners' to see (settings API).
      workersConnected = connectedWorkers(deps.store, null, Date.now());
    } catch {
      store = 'unavailable';
    }
    const engine = {
      kind: deps.config.engine.path ? ('native' as const) : ('wasm' as const),
      workers: deps.config.engine.workers,
      nodesPerPosition: deps.config.engine.nodesPerPosition,
      reviewsPending: queued,
      // Review workers on the fishnet protocol (issue 36) heard from in the last two minutes.
      reviewWorkersConnected: workersConnected,
    };
    res.set('Cache-Control', 'no-store');
    res.status(store === 'ok' ? 200 : 503).json({ status: store === 'ok' ? 'ok' : 'degraded', version: packageJson.version, store, engine });
  });
  return router;
}

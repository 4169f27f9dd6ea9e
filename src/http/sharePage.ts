import express, { type Router } from 'express';
import type { AppDeps } from '../context.js';
import { renderReportPage } from '../services/reports/index.js';

/**
 * The weekly report's share page. The token in the path is the only key (32 random bytes), so the
 * page must not leak it onward: no referrer, no shared caching.
 */
export function shareRouter(deps: AppDeps): Router {
  const router = express.Router();
  router.get('/share/reports/:token', (req, res) => {
    const html = /^[A-Za-z0-9_-]{20,100}$/.test(req.params.token) ? renderReportPage(deps.store, req.params.token) : null;
    res.set({ 'Referrer-Policy': 'no-referrer', 'Cache-Control': 'private, no-store', 'X-Robots-Tag': 'noindex' });
    if (!html) {
      res.status(404).json({ error: 'no shared report at that address' });
      return;
    }
    res.type('text/html; charset=utf-8').send(html);
  });
  return router;
}

import { createHash } from 'node:crypto';
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
    res.set({ 'Referrer-Policy': 'no-referrer', 'Cache-Control': 'private, no-store', 'X-Robots-Tag': 'noindex', ...sharePageSecurityHeaders(html ?? '') });
    if (!html) {
      res.status(404).json({ error: 'no shared report at that address' });
      return;
    }
    res.type('text/html; charset=utf-8').send(html);
  });
  return router;
}

/**
 * The dashboard's protections (dashboard.ts): nosniff, no framing, a strict CSP. The page is the
 * e-mailed report too, so its styles are inline (mail clients drop linked sheets): the CSP allows
 * exactly the style block and style attributes this page carries, by their SHA-256 (CSP Level 3,
 * 'unsafe-hashes' for attributes), and nothing else: no script at all, no other origin.
 */
export function sharePageSecurityHeaders(html: string): Record<string, string> {
  const hash = (text: string) => `'sha256-${createHash('sha256').update(text, 'utf8').digest('base64')}'`;
  const blocks = [...html.matchAll(/<style>([\s\S]*?)<\/style>/g)].map((m) => hash(m[1]));
  const attributes = [...new Set([...html.matchAll(/ style="([^"]*)"/g)].map((m) => hash(m[1])))];
  const styles = [...blocks, ...(attributes.length ? ["'unsafe-hashes'", ...attributes] : [])];
  return {
    'Content-Security-Policy': [
      "default-src 'none'",
      `style-src ${styles.length ? styles.join(' ') : "'none'"}`,
      "img-src 'self'",
      "base-uri 'none'",
      "form-action 'none'",
      "frame-ancestors 'none'",
    ].join('; '),
    'X-Content-Type-Options': 'nosniff',
    'X-Frame-Options': 'DENY',
    'Cross-Origin-Opener-Policy': 'same-origin',
  };
}

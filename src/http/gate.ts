import type { NextFunction, Request, RequestHandler, Response } from 'express';
import { pathsUnder } from './pathMatch.js';

/**
 * Runs `handler` (a router) only for requests whose path is `prefix` or lies under it, and passes
 * every other request straight on. Express tries each layer of each router a request goes through,
 * a path match each: an MCP call went through about 30 (the settings API's routes, the dashboard's
 * pages, …) before its own. Routers keep their full paths.
 */
export function under(prefix: string, handler: RequestHandler): RequestHandler {
  const inside = pathsUnder(prefix);
  return (req: Request, res: Response, next: NextFunction) => (inside.test(req.path) ? handler(req, res, next) : next());
}

/** The converse of `under`: runs `handler` for every path except `prefix` and those under it. */
export function outside(prefix: string, handler: RequestHandler): RequestHandler {
  const inside = pathsUnder(prefix);
  return (req: Request, res: Response, next: NextFunction) => (inside.test(req.path) ? next() : handler(req, res, next));
}

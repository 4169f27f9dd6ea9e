import type { NextFunction, Request, RequestHandler, Response } from 'express';

/** `prefix` itself or any path below it, ignoring case as express's own matching does. */
const pathsUnder = (prefix: string) => new RegExp(`^${prefix.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}(?:/|$)`, 'i');

/**
 * Runs `handler` (a router) only for requests whose path is `prefix` or lies under it, and passes
 * every other request straight on. Express tries each layer of each router a request goes through,
 * a path match each: a read of one game went through about 60 layers before its own (the discovery
 * routes, the settings API, the dashboard's pages, …), and a route mounted last through 95, a fifth
 * of what a bare express route costs in all (issue 13). Routers keep their full paths.
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

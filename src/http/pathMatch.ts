/**
 * Request paths matched as express 5 matches them (path-to-regexp 8's defaults): case is ignored,
 * and the paths here are still percent-encoded. One place for the handlers in front of the express
 * app (rest.ts) and the gates on its routers (gate.ts).
 */

const escapeRegExp = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/** `prefix` itself or any path below it. */
export function pathsUnder(prefix: string): RegExp {
  return new RegExp(`^${escapeRegExp(prefix)}(?:/|$)`, 'i');
}

/**
 * A route's path (`/api/v1/me/games/{id}`) as a pattern: each `{name}` is one non-empty segment,
 * captured in order, and one trailing slash is allowed.
 */
export function routePattern(path: string): RegExp {
  return new RegExp(`^${path.split(/\{\w+\}/).map(escapeRegExp).join('([^/]+)')}/?$`, 'i');
}

/** `/api/v1/me/games/{id}` → `/api/v1/me/games/:id`: the same route as an express 5 path (the settings API's routes). */
export function expressPath(path: string): string {
  return path.replace(/\{(\w+)\}/g, ':$1');
}

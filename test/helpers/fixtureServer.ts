import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

export type FixtureHandler = (req: IncomingMessage, res: ServerResponse, url: URL) => void | Promise<void>;

export interface FixtureServer {
  url: string;
  /** Every request seen, in order: method, path with query, headers. */
  requests: Array<{ method: string; path: string; headers: IncomingMessage['headers'] }>;
  /** Routes: exact path (without query) → handler; the first matching prefix wins for `prefix:` keys. */
  route(path: string, handler: FixtureHandler): void;
  /** Runs before routing; returning true means it answered (or chose to stall) this request itself. */
  intercept(handler: ((req: IncomingMessage, res: ServerResponse, url: URL) => boolean | Promise<boolean>) | null): void;
  close(): Promise<void>;
}

/**
 * A local HTTP server that plays a source (chess.com, lichess, ECF, chess-results) from
 * recorded-format payloads. Tests point the client's base URL at `url`; nothing leaves loopback.
 */
export async function startFixtureServer(): Promise<FixtureServer> {
  const routes = new Map<string, FixtureHandler>();
  let interceptor: Parameters<FixtureServer['intercept']>[0] = null;
  const requests: FixtureServer['requests'] = [];
  const server: Server = createServer(async (req, res) => {
    const url = new URL(req.url ?? '/', 'http://fixture');
    requests.push({ method: req.method ?? 'GET', path: url.pathname + url.search, headers: req.headers });
    if (interceptor && (await interceptor(req, res, url))) return;
    const handler =
      routes.get(url.pathname) ?? [...routes.entries()].find(([k]) => k.startsWith('prefix:') && url.pathname.startsWith(k.slice(7)))?.[1];
    if (!handler) {
      res.writeHead(404, { 'content-type': 'text/plain' }).end('no fixture');
      return;
    }
    try {
      await handler(req, res, url);
    } catch (err) {
      res.writeHead(500).end(String(err));
    }
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    requests,
    route: (path, handler) => routes.set(path, handler),
    intercept: (handler) => {
      interceptor = handler;
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/**
 * Holds every request `ms` before it is routed and counts those open at once: fetches running side by side would
 * overlap, so a `mostOpen()` of 1 shows they took turns.
 */
export function countOpenRequests(server: FixtureServer, ms: number): { mostOpen(): number } {
  let open = 0;
  let most = 0;
  server.intercept(async (_req, res) => {
    open += 1;
    most = Math.max(most, open);
    res.once('close', () => (open -= 1));
    await new Promise((r) => setTimeout(r, ms));
    return false;
  });
  return { mostOpen: () => most };
}

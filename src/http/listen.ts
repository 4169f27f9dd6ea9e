import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { AnyTool } from '../../tools/defineTool.js';
import type { AppDeps } from '../context.js';
import { createHttpApp, type HttpOptions } from './app.js';

export interface Listening {
  url: string;
  server: Server;
  close(): Promise<void>;
}

/** Starts the HTTP surface; port 0 picks a free port (tests). */
export async function listen(
  tools: readonly AnyTool[],
  deps: AppDeps,
  opts: Partial<HttpOptions> & { host: string; port: number },
): Promise<Listening> {
  let baseUrl = opts.baseUrl ?? '';
  // The discovery documents need the real port, known only after binding: build the app lazily.
  let handler: ReturnType<typeof createHttpApp> | null = null;
  const { createServer } = await import('node:http');
  const server = createServer((req, res) => handler!(req, res));
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(opts.port, opts.host, () => resolve());
  });
  const { port } = server.address() as AddressInfo;
  const hostForUrl = opts.host.includes(':') ? `[${opts.host}]` : opts.host;
  if (!baseUrl) baseUrl = `http://${hostForUrl === '0.0.0.0' ? '127.0.0.1' : hostForUrl}:${port}`;
  handler = createHttpApp(tools, deps, { baseUrl, strangerPace: opts.strangerPace });
  return {
    url: baseUrl,
    server,
    close: () =>
      new Promise<void>((resolve) => {
        handler?.close();
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

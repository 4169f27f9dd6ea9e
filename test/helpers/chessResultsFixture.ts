import { fixedClock } from '../../src/clock.js';
import { ChessResultsClient } from '../../src/sources/chessresults/client.js';
import { CourtesyGate, type CourtesyTiming } from '../../src/sources/chessresults/courtesy.js';
import type { TestApp } from './app.js';
import { startFixtureServer, type FixtureServer } from './fixtureServer.js';
import { page } from '../sources/chessresults/pages.js';

/** Pages by `art` and `rd` (`art0`, `art2rd3`, …); a key not given is answered 404. */
export type Pages = Partial<Record<`art${number}` | `art${number}rd${number}`, string>>;

export function jeddahPages() {
  return { art0: page('startingrank'), art5: page('crosstable'), art2rd1: page('r1'), art2rd2: page('r2_live'), art2rd3: page('r3_unpaired'), art40: page('notpaired_midevent') } satisfies Pages;
}

/** Virtual time for the courtesy gate: sleeping moves the clock, nothing waits. */
export function virtualTiming(): CourtesyTiming & { t: number } {
  const v = { t: 0, now: () => v.t, sleep: async (ms: number) => void (v.t += ms) };
  return v;
}

/**
 * A chess-results stand-in on loopback that serves the saved pages by `art`/`rd`, counting requests
 * in flight so tests can check the courtesy cap.
 */
export async function chessResultsServer(tnrs: string[], pages: (tnr: string) => Pages = jeddahPages) {
  const server = await startFixtureServer();
  const stats = { inFlight: 0, maxInFlight: 0 };
  for (const tnr of tnrs) {
    server.route(`/tnr${tnr}.aspx`, async (_req, res, url) => {
      stats.inFlight += 1;
      stats.maxInFlight = Math.max(stats.maxInFlight, stats.inFlight);
      await new Promise((r) => setTimeout(r, 2));
      stats.inFlight -= 1;
      const key = `art${url.searchParams.get('art')}${url.searchParams.get('rd') ? `rd${url.searchParams.get('rd')}` : ''}` as keyof Pages;
      const body = pages(tnr)[key];
      if (!body) return void res.writeHead(404).end('not found');
      res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end(body);
    });
  }
  return { server, stats };
}

/** Points the app's long-lived client at the fixture server, with a gate on virtual time. */
export function useClient(app: TestApp, server: FixtureServer, gate = new CourtesyGate(1000, 8000, virtualTiming())): ChessResultsClient {
  const client = new ChessResultsClient({ baseUrl: server.url, userAgent: 'cfp-test', clock: app.deps.clock, gate });
  (app.deps.runtime as { chessResults: ChessResultsClient }).chessResults = client;
  return client;
}

export { fixedClock };

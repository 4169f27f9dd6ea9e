import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { ServerResponse } from 'node:http';
import type { FixtureServer } from '../../helpers/fixtureServer.js';

export const FIXTURES = join(import.meta.dirname, '../../fixtures/sources');
export const fixture = (path: string) => readFileSync(join(FIXTURES, path), 'utf8');
export const fixtureLines = (path: string) => fixture(path).split('\n').filter((l) => l.trim());

export interface LichessPlay {
  /** NDJSON game lines (any order; served sorted by createdAt as asked). */
  lines: string[];
  /** Answer the n-th export request (0-based) with this instead. */
  override?: (n: number, res: ServerResponse, served: string[]) => boolean | Promise<boolean>;
}

/** Plays lichess's user export honouring `since` (inclusive, on createdAt) and `sort`. */
export function playLichess(server: FixtureServer, play: LichessPlay): { exportRequests: URL[] } {
  const exportRequests: URL[] = [];
  server.route('prefix:/api/games/user/', async (_req, res, url) => {
    const n = exportRequests.length;
    exportRequests.push(url);
    const since = Number(url.searchParams.get('since') ?? 0);
    const games = play.lines
      .map((l) => ({ l, at: (JSON.parse(l) as { createdAt: number }).createdAt }))
      .filter((g) => g.at >= since)
      .sort((a, b) => (url.searchParams.get('sort') === 'dateAsc' ? a.at - b.at : b.at - a.at))
      .map((g) => g.l);
    if (play.override && (await play.override(n, res, games))) return;
    res.writeHead(200, { 'content-type': 'application/x-ndjson' });
    for (const l of games) res.write(l + '\n');
    res.end();
  });
  server.route('prefix:/api/user/', (_req, res, url) => {
    if (url.pathname.endsWith('/rating-history')) {
      res.writeHead(200, { 'content-type': 'application/json' }).end(fixture('lichess/user_rating_history.json'));
    } else res.writeHead(404).end();
  });
  server.route('/api/puzzle/activity', (req, res) => {
    if (!req.headers.authorization) return void res.writeHead(401).end('{"error":"No such token"}');
    res.writeHead(200, { 'content-type': 'application/x-ndjson' }).end(fixture('lichess/puzzle_activity.ndjson'));
  });
  return { exportRequests };
}

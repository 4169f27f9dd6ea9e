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
    } else if (/^\/api\/user\/[^/]+$/.test(url.pathname)) {
      res.writeHead(200, { 'content-type': 'application/json' }).end(fixture('lichess/user_public.json'));
    } else res.writeHead(404).end();
  });
  server.route('/api/puzzle/activity', (req, res) => {
    if (!req.headers.authorization) return void res.writeHead(401).end('{"error":"No such token"}');
    res.writeHead(200, { 'content-type': 'application/x-ndjson' }).end(fixture('lichess/puzzle_activity.ndjson'));
  });
  return { exportRequests };
}

/** Plays PubAPI: archives, months with ETags honouring If-None-Match, stats. `months` may be changed between syncs. */
export function playChesscom(server: FixtureServer, months: Record<string, string>) {
  const version: Record<string, number> = {};
  server.route('/pub/player/pawnstormpilot/games/archives', (_req, res) => {
    const archives = Object.keys(months).map((m) => `https://api.chess.com/pub/player/pawnstormpilot/games/${m}`);
    res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ archives }));
  });
  server.route('prefix:/pub/player/pawnstormpilot/games/', (req, res, url) => {
    const m = url.pathname.split('/games/')[1];
    const body = months[m];
    if (body === undefined) return void res.writeHead(404).end();
    const etag = `"${m}-${body.length}"`;
    version[m] = (version[m] ?? 0) + 1;
    if (req.headers['if-none-match'] === etag) return void res.writeHead(304, { etag }).end();
    res.writeHead(200, { 'content-type': 'application/json', etag, 'last-modified': 'Sat, 01 Mar 2025 00:00:00 GMT' }).end(body);
  });
  server.route('/pub/player/pawnstormpilot/stats', (_req, res) => void res.writeHead(200).end(fixture('chesscom/player_stats.json')));
}


/** Plays the ECF API (path in the query string). `answers` maps the v2 path prefix to a body. */
export function playEcf(server: FixtureServer, answers: Record<string, string>) {
  server.route('/v2/new/api.php', (_req, res, url) => {
    const path = decodeURIComponent(url.search.slice(1)); // "v2/games/Standard/player/998877/limit/2000"
    const hit = Object.entries(answers).find(([k]) => path.startsWith(k));
    if (!hit) return void res.writeHead(404, { 'content-type': 'application/json' }).end('{"success":false}');
    res.writeHead(200, { 'content-type': 'application/json' }).end(hit[1]);
  });
}


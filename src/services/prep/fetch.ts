import type { AppDeps } from '../../context.js';
import { archiveMonths, fetchMonth } from '../../sources/chesscom/client.js';
import { parseChesscomGame } from '../../sources/chesscom/parse.js';
import type { PoliteSettings, SourceClientOptions } from '../../sources/http.js';
import { exportGames } from '../../sources/lichess/client.js';
import { parseLichessGame } from '../../sources/lichess/parse.js';
import type { SourceRecord } from '../../sources/types.js';
import { defaultSleep } from '../sync/index.js';
import { LICHESS_POLITENESS } from '../sync/index.js';
// As the sync: a month checked SETTLE_MS after it ended is final.
import { monthEnd, SETTLE_MS } from '../sync/index.js';
import type { ScoutGameRow, ScoutRow } from './scoutStore.js';

export interface FetchProgress {
  phase: string;
  fetched: number;
  stored: number;
  done: number | null;
  total: number | null;
}

export interface FetchOptions {
  sleep?: (ms: number) => Promise<void>;
  signal?: AbortSignal;
  onProgress?: (p: FetchProgress) => void;
}

/** What one fetch read: the games (newest first), the cursor to store with them, and the requests it made. */
export interface Fetched {
  rows: ScoutGameRow[];
  cursor: object;
  fetched: number;
  requests: number;
}

/** The first instant of the window: `months` months before now. */
export function windowStart(now: Date, months: number): Date {
  const d = new Date(now);
  d.setUTCMonth(d.getUTCMonth() - months);
  return d;
}

/**
 * The polite client of the sync (timeouts, 429 waits, retries) with the scout's sleep and signal, counting every
 * request it makes; the peers' explorer fetch (peers/runs.ts) asks lichess through it too.
 */
export function politeClient(deps: AppDeps, baseUrl: string, opts: FetchOptions, polite: Partial<PoliteSettings>, count: () => void): SourceClientOptions {
  const { sources } = deps.config;
  const base = fetch;
  return {
    baseUrl,
    userAgent: sources.userAgent,
    signal: opts.signal,
    // Counted per request made, so a repeat can be shown to ask only for what is new.
    fetch: (input, init) => {
      count();
      return base(input, init);
    },
    polite: {
      connectTimeoutMs: sources.connectTimeoutMs,
      idleTimeoutMs: sources.idleTimeoutMs,
      maxRetries: sources.maxRetries,
      maxRetryAfterSeconds: sources.maxRetryAfterSeconds,
      sleep: opts.sleep ?? defaultSleep,
      ...polite,
    },
  };
}

/** A parsed record (its colour and result already the scouted player's) as a stored scout game. */
function rowOf(rec: SourceRecord, rating: number | null): ScoutGameRow {
  const g = rec.game;
  return {
    scoutId: '',
    sourceId: g.sourceId,
    playedAt: g.playedAt,
    colour: g.colour,
    result: g.result,
    opponent: g.opponent,
    opponentRating: g.opponentRating ?? null,
    rating,
    timeClass: g.timeClass,
    rated: g.rated,
    eco: g.eco ?? null,
    opening: g.opening ?? null,
    sanMoves: rec.pgn ? rec.pgn.parsed.plies.map((p) => p.san).join(' ') : '',
  };
}

interface LichessScoutCursor {
  /** createdAt (ms) of the newest game read: a repeat asks only for later games. */
  since?: number;
}

/**
 * lichess: the export, newest first, at most `maxGames`, from the later of the window's start and the
 * last fetch's newest game (lichess's `since` is inclusive, so one millisecond past it).
 */
async function fetchLichess(deps: AppDeps, scout: ScoutRow, cursor: LichessScoutCursor, opts: FetchOptions): Promise<Fetched> {
  let requests = 0;
  // lichess asks for a full minute after a 429, as the sync waits (https://lichess.org/api, "Rate limiting").
  const c = politeClient(deps, deps.config.sources.lichessUrl, opts, LICHESS_POLITENESS, () => (requests += 1));
  const start = windowStart(deps.clock.now(), scout.months).getTime();
  const since = Math.max(start, cursor.since === undefined ? 0 : cursor.since + 1);
  const rows: ScoutGameRow[] = [];
  let fetched = 0;
  let newest = cursor.since ?? 0;
  opts.onProgress?.({ phase: 'games', fetched, stored: 0, done: null, total: null });
  for await (const raw of exportGames(c, scout.username, since, { max: scout.maxGames, newestFirst: true })) {
    fetched += 1;
    const rec = parseLichessGame(raw, scout.username, { review: false });
    newest = Math.max(newest, (raw as { createdAt: number }).createdAt);
    if (!('skip' in rec)) {
      const own = (raw as { players: Record<string, { rating?: number; ratingDiff?: number }> }).players[rec.game.colour];
      rows.push(rowOf(rec, own.rating === undefined ? null : own.rating + (own.ratingDiff ?? 0)));
    }
    opts.onProgress?.({ phase: 'games', fetched, stored: 0, done: null, total: null });
  }
  return { rows, cursor: { since: newest || undefined }, fetched, requests };
}

interface ChesscomScoutCursor {
  months?: Record<string, { etag: string | null; lastModified: string | null; checkedAt: string }>;
}


/**
 * chess.com: the monthly archives of the window, newest first, until `maxGames` games are read. A month
 * checked after it settled is final and not asked again; others are revalidated with their ETag (304:
 * nothing new).
 */
async function fetchChesscom(deps: AppDeps, scout: ScoutRow, cursor: ChesscomScoutCursor, opts: FetchOptions): Promise<Fetched> {
  let requests = 0;
  // chess.com names no wait on 429: back off from 5 s, doubling, as the sync does.
  const c = politeClient(deps, deps.config.sources.chesscomUrl, opts, { rateLimitWaitMs: 5_000, backoffFactor: 2 }, () => (requests += 1));
  const now = deps.clock.now();
  const start = windowStart(now, scout.months);
  const firstMonth = `${start.getUTCFullYear()}/${String(start.getUTCMonth() + 1).padStart(2, '0')}`;
  const states = { ...(cursor.months ?? {}) };
  opts.onProgress?.({ phase: 'archives', fetched: 0, stored: 0, done: null, total: null });
  const months = (await archiveMonths(c, scout.username)).filter((m) => m >= firstMonth).reverse();
  const rows: ScoutGameRow[] = [];
  let fetched = 0;
  for (const [i, month] of months.entries()) {
    if (rows.length >= scout.maxGames) break;
    opts.onProgress?.({ phase: `archive ${month}`, fetched, stored: 0, done: i, total: months.length });
    const state = states[month];
    if (state && Date.parse(state.checkedAt) >= monthEnd(month) + SETTLE_MS) continue;
    const res = await fetchMonth(c, scout.username, month, state ?? null);
    states[month] = { etag: res.etag, lastModified: res.lastModified, checkedAt: now.toISOString() };
    if (res.games === null) continue;
    const monthRows: ScoutGameRow[] = [];
    for (const [j, raw] of res.games.entries()) {
      fetched += 1;
      // The rating chain is the owner sync's (pre-game ratings); a scout keeps the published figure, the rating after the game.
      const rec = parseChesscomGame(raw, scout.username, {}, `chess.com archive ${month}: games[${j}]`);
      if ('skip' in rec) continue;
      const side = (raw as Record<'white' | 'black', { rating: number }>)[rec.game.colour];
      monthRows.push(rowOf(rec, side.rating));
    }
    monthRows.sort((a, b) => b.playedAt.localeCompare(a.playedAt));
    rows.push(...monthRows.slice(0, scout.maxGames - rows.length));
  }
  opts.onProgress?.({ phase: 'archives', fetched, stored: 0, done: months.length, total: months.length });
  return { rows: rows.filter((r) => r.playedAt >= start.toISOString()), cursor: { months: states }, fetched, requests };
}

export function fetchScout(deps: AppDeps, scout: ScoutRow, opts: FetchOptions): Promise<Fetched> {
  let cursor: object = {};
  try {
    const v = JSON.parse(scout.cursor);
    if (v && typeof v === 'object') cursor = v;
  } catch {
    // A damaged cursor starts over; every game is stored once whatever the cursor says.
  }
  return scout.provider === 'siteB' ? fetchLichess(deps, scout, cursor, opts) : fetchChesscom(deps, scout, cursor, opts);
}

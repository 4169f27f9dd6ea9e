import type { ChessResultsClient, FetchedPage } from '../../sources/chessresults/client.js';
import { SourceUnreadable } from '../../sources/chessresults/errors.js';
import {
  parseCrosstable,
  parseMeta,
  parsePairings,
  parseStartingRank,
  type PageMeta,
  type RoundPairings,
  type SeedPlayer,
} from '../../sources/chessresults/parse.js';
import { loadAbsences, type Absence } from './absences.js';
import { OUTCOME_POINTS, playerRound, type PlayerRound, type RoundOutcome } from './playerRound.js';

export interface LoadedPlayer extends SeedPlayer {
  /** Points so far: every decided round, including results the current round page already shows. */
  points: number;
  rounds: PlayerRound[];
}

export interface LoadedTournament {
  tnr: string;
  name: string;
  lastUpdate: string | null;
  roundsPaired: number;
  roundsTotal: number | null;
  players: LoadedPlayer[];
  /** The latest paired round's page (null before round 1 is paired). */
  currentRound: RoundPairings | null;
  /** Who the round to pair (roundsPaired + 1) already lists as not playing; empty when its page has none. */
  nextRoundAbsences: Absence[];
  /** The oldest fetch time of the pages combined: how old this snapshot is. */
  snapshotAt: Date;
}

const RESULT_OUTCOME = { '1-0': ['win', 'loss'], '0-1': ['loss', 'win'], '½-½': ['draw', 'draw'], '+--': ['forfeitWin', 'forfeitLoss'], '--+': ['forfeitLoss', 'forfeitWin'], '0-0': ['loss', 'loss'], '---': ['forfeitLoss', 'forfeitLoss'], '½-0': ['draw', 'loss'], '0-½': ['loss', 'draw'] } as const;

/** Only the seed list: enough for the round-1 estimate (one request). */
export async function loadSeedList(client: ChessResultsClient, tnr: string): Promise<{ meta: PageMeta; players: SeedPlayer[]; page: FetchedPage }> {
  const page = await client.page(tnr, { art: 0 });
  const meta = parseMeta(page.html, 'starting rank');
  return { meta, players: parseStartingRank(page.html), page };
}

/**
 * The whole state: starting list (names, ratings), crosstable (every round of every player) and the
 * latest round's pairing page (results so far); with `nextRoundAbsences`, also the page of the round to
 * pair and the `not paired` list, for who will not play it (absences.ts). Joined on starting number, never on name; any disagreement between the
 * pages fails loudly rather than being patched over.
 */
export async function loadTournament(client: ChessResultsClient, tnr: string, opts: { nextRoundAbsences?: boolean } = {}): Promise<LoadedTournament> {
  const seed = await loadSeedList(client, tnr);
  const { meta } = seed;
  const pages: FetchedPage[] = [seed.page];
  let cross: ReturnType<typeof parseCrosstable> | null = null;
  let currentRound: RoundPairings | null = null;
  if (meta.roundsPaired > 0) {
    const crossPage = await client.page(tnr, { art: 5 });
    pages.push(crossPage);
    cross = parseCrosstable(crossPage.html);
    const roundPage = await client.page(tnr, { art: 2, round: meta.roundsPaired });
    pages.push(roundPage);
    currentRound = parsePairings(roundPage.html, meta.roundsPaired);
    if (!currentRound) throw new SourceUnreadable(`pairings: round ${meta.roundsPaired} is linked as paired but its page has no table`);
  }
  const seedRanks = new Set(seed.players.map((p) => p.startingRank));
  if (cross) {
    if (cross.length !== seed.players.length || cross.some((r) => !seedRanks.has(r.startingRank))) {
      throw new SourceUnreadable('crosstable and starting rank list hold different players');
    }
    const columns = cross[0]?.rounds.length ?? 0;
    if (columns !== meta.roundsPaired) {
      throw new SourceUnreadable(`crosstable has ${columns} round columns, the navigation says ${meta.roundsPaired} rounds are paired`);
    }
  }
  const byRank = new Map(cross?.map((r) => [r.startingRank, r]) ?? []);
  const players: LoadedPlayer[] = seed.players.map((p) => {
    const row = byRank.get(p.startingRank);
    const rounds = row ? row.rounds.map((c, k) => playerRound(c, k + 1)) : [];
    return { ...p, points: 0, rounds };
  });
  const playerByRank = new Map(players.map((p) => [p.startingRank, p]));
  if (currentRound) mergeCurrentRound(currentRound, playerByRank);
  for (const p of players) p.points = p.rounds.reduce((s, r) => s + (r.points ?? 0), 0);
  const allPaired = meta.roundsTotal !== null && meta.roundsPaired >= meta.roundsTotal;
  // The estimates need them (two more requests); the snapshot tool reports what was played and does not.
  const next = !opts.nextRoundAbsences || allPaired ? null : await loadAbsences(client, tnr, meta.roundsPaired + 1, seed.players, { played: players });
  if (next?.paired) {
    throw new SourceUnreadable(`pairings: round ${meta.roundsPaired + 1} is paired on its page, but the navigation links only ${meta.roundsPaired} rounds`);
  }
  const snapshotAt = new Date(Math.min(...[...pages, ...(next?.pages ?? [])].map((pg) => pg.fetchedAt.getTime())));
  return {
    tnr,
    name: meta.name,
    lastUpdate: meta.lastUpdate,
    roundsPaired: meta.roundsPaired,
    roundsTotal: meta.roundsTotal,
    players,
    currentRound,
    nextRoundAbsences: next?.absences ?? [],
    snapshotAt,
  };
}

/**
 * The round page is the live view: its results may be ahead of the crosstable. Its pairs must match the
 * crosstable's; a result it shows fills a cell the crosstable still has open, and contradicts none.
 */
function mergeCurrentRound(rp: RoundPairings, players: Map<number, LoadedPlayer>): void {
  const k = rp.round - 1;
  const cellOf = (rank: number) => {
    const p = players.get(rank);
    if (!p) throw new SourceUnreadable(`pairings: round ${rp.round} names starting number ${rank}, which is not on the starting list`);
    return p.rounds[k];
  };
  for (const b of rp.boards) {
    if (!b.black) continue;
    const w = cellOf(b.white.startingRank);
    const bl = cellOf(b.black.startingRank);
    if (w?.opponent !== b.black.startingRank || bl?.opponent !== b.white.startingRank || w.colour !== 'white') {
      throw new SourceUnreadable(`pairings: board ${b.board} of round ${rp.round} (${b.white.startingRank}–${b.black.startingRank}) does not match the crosstable`);
    }
    if (!b.result) continue;
    const [wo, bo] = RESULT_OUTCOME[b.result];
    for (const [cell, outcome] of [[w, wo], [bl, bo]] as const) {
      if (cell.outcome === 'pending') {
        cell.outcome = outcome;
        cell.points = OUTCOME_POINTS[outcome];
      } else if (cell.outcome !== outcome) {
        throw new SourceUnreadable(`pairings: board ${b.board} of round ${rp.round} shows ${b.result}, the crosstable another result`);
      }
    }
  }
}

/** Case, accents, commas and spacing folded: "Mcshane, Luke J" and "mcshane luke j" are one name. */
/** Letters NFKD does not split into base + accent, folded the way a reader types them without the accent. */
const LETTER_FOLDS: Record<string, string> = { ø: 'o', ł: 'l', đ: 'd', ß: 'ss', æ: 'ae', œ: 'oe', ı: 'i', þ: 'th', ð: 'd' };

export function normaliseName(name: string): string {
  return name
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .replace(/[øłđßæœıþð]/g, (c) => LETTER_FOLDS[c])
    .replace(/[,.]/g, ' ')
    .replace(/\s+/g, ' ')
    .trim();
}

import type { ChessResultsClient, FetchedPage } from '../../sources/chessresults/client.js';
import { SourceUnreadable } from '../../sources/chessresults/errors.js';
import {
  cellPoints,
  parseCrosstable,
  parseMeta,
  parsePairings,
  parseStartingRank,
  type CrossCell,
  type PageMeta,
  type RoundPairings,
  type SeedPlayer,
} from '../../sources/chessresults/parse.js';

/** A player's round as the tools report it. */
export type RoundOutcome = 'win' | 'draw' | 'loss' | 'forfeitWin' | 'forfeitLoss' | 'fullBye' | 'halfBye' | 'zeroBye' | 'pending';

export interface PlayerRound {
  round: number;
  opponent: number | null;
  colour: 'white' | 'black' | null;
  outcome: RoundOutcome;
  /** Points from this round; null while the game is in play. */
  points: number | null;
}

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
  /** The oldest fetch time of the pages combined: how old this snapshot is. */
  snapshotAt: Date;
}

const RESULT_OUTCOME = { '1-0': ['win', 'loss'], '0-1': ['loss', 'win'], '½-½': ['draw', 'draw'], '+--': ['forfeitWin', 'forfeitLoss'], '--+': ['forfeitLoss', 'forfeitWin'], '0-0': ['loss', 'loss'], '---': ['forfeitLoss', 'forfeitLoss'], '½-0': ['draw', 'loss'], '0-½': ['loss', 'draw'] } as const;

const OUTCOME_POINTS: Record<RoundOutcome, number | null> = {
  win: 1, draw: 0.5, loss: 0, forfeitWin: 1, forfeitLoss: 0, fullBye: 1, halfBye: 0.5, zeroBye: 0, pending: null,
};

function fromCell(c: CrossCell, round: number): PlayerRound {
  if (c.kind !== 'game') return { round, opponent: null, colour: null, outcome: c.kind, points: cellPoints(c) };
  const outcome: RoundOutcome = c.result ?? 'pending';
  return { round, opponent: c.opponent, colour: c.colour, outcome, points: OUTCOME_POINTS[outcome] };
}

/** Only the seed list: enough for the round-1 estimate (one request). */
export async function loadSeedList(client: ChessResultsClient, tnr: string): Promise<{ meta: PageMeta; players: SeedPlayer[]; page: FetchedPage }> {
  const page = await client.page(tnr, { art: 0 });
  const meta = parseMeta(page.html, 'starting rank');
  return { meta, players: parseStartingRank(page.html), page };
}

/**
 * The whole state: starting list (names, ratings), crosstable (every round of every player) and the
 * latest round's pairing page (results so far). Joined on starting number, never on name; any
 * disagreement between the pages fails loudly rather than being patched over.
 */
export async function loadTournament(client: ChessResultsClient, tnr: string): Promise<LoadedTournament> {
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
    const rounds = row ? row.rounds.map((c, k) => fromCell(c, k + 1)) : [];
    return { ...p, points: 0, rounds };
  });
  const playerByRank = new Map(players.map((p) => [p.startingRank, p]));
  if (currentRound) mergeCurrentRound(currentRound, playerByRank);
  for (const p of players) p.points = p.rounds.reduce((s, r) => s + (r.points ?? 0), 0);
  const snapshotAt = new Date(Math.min(...pages.map((pg) => pg.fetchedAt.getTime())));
  return {
    tnr,
    name: meta.name,
    lastUpdate: meta.lastUpdate,
    roundsPaired: meta.roundsPaired,
    roundsTotal: meta.roundsTotal,
    players,
    currentRound,
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

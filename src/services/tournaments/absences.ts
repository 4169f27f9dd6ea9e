/**
 * Who sits out the round to pair, read before the round is paired from the two pages chess-results
 * publishes it on: the round's own page (`art=2&rd=k`, a table of only its `not paired` rows, with the points
 * each gets) and the `not paired` list (`art=40`, every round of every player who missed one). The round page
 * says the kind; the list is the cross-check, and the only source when the round page is missing.
 */
import type { ChessResultsClient, FetchedPage, MissingPage } from '../../sources/chessresults/client.js';
import { SourceUnreadable } from '../../sources/chessresults/errors.js';
import { parseNotPaired, parsePairings, type NotPairedMark, type NotPairedRow, type RoundPairings, type SeedPlayer } from '../../sources/chessresults/parse.js';
import type { PlayerRound, RoundOutcome } from './playerRound.js';

/** A player and the rounds played so far (the crosstable's, with the live round page's results). */
interface Played {
  startingRank: number;
  rounds: PlayerRound[];
}

/**
 * What a player not paired for the round sits it out with. The round page prints the points: ½ a requested
 * half-point bye, 0 (or none) a zero-point absence, 1 a full-point bye. The `not paired` list prints `*` for
 * a requested bye and an absence alike (CHESS-RESULTS.md A.4: Frome 2026's round 1 has both, printed the same):
 * a player only the list names is `halfByeOrAbsent`.
 */
export const ABSENCE_KINDS = ['halfBye', 'zeroBye', 'fullBye', 'halfByeOrAbsent'] as const;
/** The two pages that can name a player absent from the round to pair. */
export const ABSENCE_SOURCES = ['roundPage', 'notPairedList'] as const;

export interface Absence {
  startingRank: number;
  name: string;
  kind: (typeof ABSENCE_KINDS)[number];
  /** Which of the two pages name the player. */
  seenOn: Array<(typeof ABSENCE_SOURCES)[number]>;
}

export interface RoundAbsences {
  absences: Absence[];
  /** The round's own page as parsed: null when it has no table (or is a 404). */
  pairings: RoundPairings | null;
  /** Its page holds a real board, not only `not paired` rows: the round is paired. */
  paired: boolean;
  /** The pages read, for the snapshot's age. */
  pages: Array<FetchedPage | MissingPage>;
}

const KIND_BY_POINTS = { 0: 'zeroBye', 0.5: 'halfBye', 1: 'fullBye' } as const;

/** The crosstable outcomes each mark of the list stands for (the three real lists saved agree cell by cell; -1 is a pairing-allocated or a given full-point bye). */
const MARK_EXPLAINS: Record<NotPairedMark, ReadonlySet<RoundOutcome>> = {
  notPaired: new Set(['halfBye', 'zeroBye']),
  pairingBye: new Set(['fullBye']),
  // A forfeit entered between the two fetches: the British Championship 2026's saved crosstable (12:22)
  // still prints No. 54's round 9 as "86w" (paired, no result), its list (17:48) already "0F".
  forfeitLoss: new Set(['forfeitLoss', 'pending']),
};
/** Crosstable outcomes the list must mark: every bye and absence (a forfeit is on it too, but not required). */
const MUST_MARK: Partial<Record<RoundOutcome, NotPairedMark>> = { halfBye: 'notPaired', zeroBye: 'notPaired', fullBye: 'pairingBye' };

/**
 * The absences from round `round`'s page and, while that round is not yet paired (neither linked as paired
 * in the navigation nor holding a real board), the `not paired` list. A 404 or a page without a table names
 * nobody. Given the rounds already played (`played`, from the crosstable), the list must agree with them
 * round by round, or the pages are not one snapshot: the fixed 502, as for any disagreement between pages.
 */
export async function loadAbsences(
  client: ChessResultsClient,
  tnr: string,
  round: number,
  seeds: SeedPlayer[],
  opts: { played?: Played[]; linkedAsPaired?: boolean } = {},
): Promise<RoundAbsences> {
  const page = await client.pageIfAny(tnr, { art: 2, round });
  const pairings = page.html === null ? null : parsePairings(page.html, round);
  const known = new Map(seeds.map((p) => [p.startingRank, p]));
  const named = (rank: number, where: string) => {
    const p = known.get(rank);
    if (!p) throw new SourceUnreadable(`${where} names starting number ${rank}, which is not on the starting list`);
    return p.name;
  };
  const absences: Absence[] = [];
  for (const b of pairings?.boards ?? []) {
    const name = named(b.white.startingRank, `pairings: round ${round}`);
    if (b.bye?.kind !== 'not paired') continue;
    const pts = b.bye.points ?? 0;
    if (!(pts in KIND_BY_POINTS)) throw new SourceUnreadable(`pairings: round ${round} shows ${pts} points for a player not paired`);
    absences.push({ startingRank: b.white.startingRank, name, kind: KIND_BY_POINTS[pts as keyof typeof KIND_BY_POINTS], seenOn: ['roundPage'] });
  }
  // A paired round's own page is the whole truth: the list adds nothing.
  const paired = pairings?.boards.some((b) => b.bye?.kind !== 'not paired') ?? false;
  if (opts.linkedAsPaired || paired) return { absences, pairings, paired, pages: [page] };

  const listPage = await client.pageIfAny(tnr, { art: 40 });
  const list = listPage.html === null ? [] : parseNotPaired(listPage.html);
  // A 404 says nothing; a page without a table says nobody missed a round, which the crosstable must bear out.
  if (listPage.html !== null) checkAgainstPlayed(list, opts.played ?? []);
  for (const row of list) {
    const name = named(row.startingRank, 'not paired');
    const mark = row.marks.get(round);
    if (mark === undefined) continue;
    if (mark === 'forfeitLoss') throw new SourceUnreadable(`not paired: round ${round} shows a forfeit for player ${row.startingRank}, so it was paired after the navigation was read`);
    const onPage = absences.find((a) => a.startingRank === row.startingRank);
    if (onPage) onPage.seenOn.push('notPairedList');
    // Before the pairing there is no pairing-allocated bye: a `bye` is a full-point bye given in advance
    // (the crosstable writes both as -1).
    else absences.push({ startingRank: row.startingRank, name, kind: mark === 'pairingBye' ? 'fullBye' : 'halfByeOrAbsent', seenOn: ['notPairedList'] });
  }
  absences.sort((a, b) => a.startingRank - b.startingRank);
  return { absences, pairings, paired, pages: [page, listPage] };
}

/** Every mark of a round already paired is the crosstable's cell, and every bye or absence there is marked. */
function checkAgainstPlayed(list: NotPairedRow[], played: Played[]): void {
  const marksOf = new Map(list.map((r) => [r.startingRank, r.marks]));
  for (const p of played) {
    for (const r of p.rounds) {
      const mark = marksOf.get(p.startingRank)?.get(r.round);
      const explained = mark === undefined ? MUST_MARK[r.outcome] === undefined : MARK_EXPLAINS[mark].has(r.outcome);
      if (!explained) {
        throw new SourceUnreadable(
          `not paired: player ${p.startingRank}'s round ${r.round} is ${mark === undefined ? 'not marked' : `marked ${mark}`}, the crosstable shows ${r.outcome}`,
        );
      }
    }
  }
}

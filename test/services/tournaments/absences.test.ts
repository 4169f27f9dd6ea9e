import { describe, expect, test } from 'vitest';
import type { ChessResultsClient, ChessResultsView } from '../../../src/sources/chessresults/client.js';
import { parseCrosstable, type SeedPlayer } from '../../../src/sources/chessresults/parse.js';
import { loadAbsences } from '../../../src/services/tournaments/absences.js';
import type { LoadedPlayer } from '../../../src/services/tournaments/load.js';
import { playerRound } from '../../../src/services/tournaments/playerRound.js';
import { finishedEvent, page } from '../../sources/chessresults/pages.js';

/**
 * The `not paired` list (art=40) read beside the crosstable of the same event, on the three real lists saved
 * (test/fixtures/sources/chessresults/SOURCES.md). The round to pair's own page is a 404 here, so whatever is
 * found absent comes from the list.
 */
const FETCHED = new Date('2026-08-10T14:10:00Z');
function clientFor(list: string): ChessResultsClient {
  const pageIfAny = async (_tnr: string, view: ChessResultsView) => ({ url: `saved:${view.art}`, html: view.art === 40 ? list : null, fetchedAt: FETCHED });
  return { pageIfAny } as unknown as ChessResultsClient;
}

/** The crosstable's players, with only their first `rounds` rounds played. */
function played(crosstable: string, rounds = Infinity): { seeds: SeedPlayer[]; players: LoadedPlayer[] } {
  const rows = parseCrosstable(crosstable);
  const players = rows.map((r) => ({
    startingRank: r.startingRank,
    name: r.name,
    title: null,
    rating: r.rating ?? 0,
    federation: null,
    points: 0,
    rounds: r.rounds.slice(0, rounds).map((c, k) => playerRound(c, k + 1)),
  }));
  return { seeds: players, players };
}

describe('the list agrees with the crosstable, round by round, on every saved event', () => {
  test('Jeddah during round 2 (one snapshot): its four round-1 marks are the crosstable’s -0, two forfeits and -1; nobody is out of round 3', async () => {
    const { seeds, players } = played(page('crosstable'));
    const r = await loadAbsences(clientFor(page('notpaired_midevent')), '1473782', 3, seeds, { played: players });
    expect(r.absences).toEqual([]);
    expect(r.pages).toHaveLength(2);
  });

  test('the British Championship after round 9: 39 marks, including a forfeit its earlier crosstable still shows unplayed', async () => {
    // The saved crosstable (12:22) predates the list (17:48): No. 54's round 9 is "86w" there, "0F" on the list.
    const { seeds, players } = played(finishedEvent('british2026_champ').crosstable);
    expect(players.find((p) => p.startingRank === 54)!.rounds[8]).toMatchObject({ opponent: 86, outcome: 'pending' });
    const r = await loadAbsences(clientFor(finishedEvent('british2026_champ').notPaired), '1452107', 10, seeds, { played: players });
    expect(r.absences).toEqual([]);
  });

  test('Frome with round 5 still to pair: the list names exactly the four the crosstable later shows as -½ or -0', async () => {
    const { crosstable, notPaired } = finishedEvent('frome2026_open');
    const { seeds, players } = played(crosstable, 4);
    const r = await loadAbsences(clientFor(notPaired), '1393521', 5, seeds, { played: players });
    const round5 = parseCrosstable(crosstable).filter((p) => p.rounds[4].kind === 'halfBye' || p.rounds[4].kind === 'zeroBye');
    expect(round5.map((p) => p.startingRank).sort((a, b) => a - b)).toEqual([8, 14, 15, 29]);
    expect(r.absences.map((a) => [a.startingRank, a.kind, a.seenOn])).toEqual(round5.map((p) => [p.startingRank, 'halfByeOrAbsent', ['notPairedList']]).sort((a, b) => Number(a[0]) - Number(b[0])));
  });

  test('a bye or absence the list does not mark, or a mark the crosstable does not bear out, is a disagreement: SourceUnreadable', async () => {
    const { seeds, players } = played(page('crosstable'));
    const without32 = page('notpaired_midevent').replace('<td class="CRc">*</td>', '<td class="CRc"></td>');
    await expect(loadAbsences(clientFor(without32), '1473782', 3, seeds, { played: players })).rejects.toThrow(/: not paired: player 32's round 1 is not marked, the crosstable shows zeroBye$/);
    const byeFor32 = page('notpaired_midevent').replace('<td class="CRc">*</td>', '<td class="CRc">bye</td>');
    await expect(loadAbsences(clientFor(byeFor32), '1473782', 3, seeds, { played: players })).rejects.toThrow(/: not paired: player 32's round 1 is marked pairingBye, the crosstable shows zeroBye$/);
  });
});

import { describe, expect, test } from 'vitest';
import type { Ctx } from '../../../src/context.js';
import type { ChessResultsClient, ChessResultsView } from '../../../src/sources/chessresults/client.js';
import { parseCrosstable, parseStartingRank } from '../../../src/sources/chessresults/parse.js';
import type { PairingEngine } from '../../../src/services/tournaments/engine.js';
import { NoLegalPairingError } from '../../../src/chess/pairing/index.js';
import { pairingsEstimate } from '../../../src/services/tournaments/estimates.js';
import { loadTournament } from '../../../src/services/tournaments/load.js';
import { toEngineState, type EngineTournamentState } from '../../../src/services/tournaments/pairingInput.js';
import { estimateRound1 } from '../../../src/services/tournaments/round1.js';
import { britishUnpairedRound8, page } from '../../sources/chessresults/pages.js';

const FETCHED = new Date('2026-08-10T14:10:00Z');

/** The saved Jeddah pages behind the client's interface (no network: these tests are about the adapter). */
const savedPage = async (_tnr: string, view: ChessResultsView) => {
  const name = view.art === 0 ? 'startingrank' : view.art === 5 ? 'crosstable' : view.art === 40 ? 'notpaired_midevent' : view.round === 1 ? 'r1' : view.round === 2 ? 'r2_live' : 'r3_unpaired';
  return { url: `saved:${name}`, html: page(name), fetchedAt: FETCHED };
};
const savedPages = { page: savedPage, pageIfAny: savedPage } as unknown as ChessResultsClient;

const ctx = { caller: { surface: 'rest', key: 't' }, runtime: { chessResults: savedPages } } as unknown as Ctx;

describe('round 1 from the seed list', () => {
  test('with No. 32 absent (as the crosstable shows, "-0"), the estimate gives every real round-1 opponent', () => {
    const seeds = parseStartingRank(page('startingrank')).filter((p) => p.startingRank !== 32);
    const { boards, byes } = estimateRound1(seeds);
    // 31 players: No. 31 gets the bye ("-1" in the crosstable); then i meets i + 15.
    expect(byes.map((p) => p.startingRank)).toEqual([31]);
    const real = parseCrosstable(page('crosstable'));
    for (const b of boards) {
      const w = real.find((r) => r.startingRank === b.white.startingRank)!.rounds[0];
      expect(w.kind === 'game' && w.opponent).toBe(b.black.startingRank);
    }
    expect(boards).toHaveLength(15);
    // Real round 1 gave No. 1 Black ("16b1"): the drawn initial colour was Black, the estimate assumed White.
    expect(boards[0]).toMatchObject({ white: { startingRank: 1 }, black: { startingRank: 16 } });
  });
});

describe('the engine input built from the Jeddah snapshot', () => {
  test('history, points, colours and the assumed results of games in play', async () => {
    const t = await loadTournament(savedPages, '1473782');
    const { state, assumed } = toEngineState(t, () => 'draw');
    expect([state.totalRounds, state.roundsPlayed]).toEqual([7, 2]);
    expect(state.initialColour).toBe('black'); // No. 1 had Black on board 1 of round 1
    const p = (n: number) => state.players.find((x) => x.startingRank === n)!;
    expect(p(1).history).toEqual([
      { kind: 'game', opponent: 16, colour: 'black', result: 'win' },
      { kind: 'game', opponent: 10, colour: 'white', result: 'win' },
    ]);
    expect(p(1).points).toBe(2);
    // No. 3 v No. 12 is in play: assumed drawn, 1 + ½.
    expect(p(3).history[1]).toEqual({ kind: 'game', opponent: 12, colour: 'white', result: 'draw' });
    expect(p(12).history[1]).toEqual({ kind: 'game', opponent: 3, colour: 'black', result: 'draw' });
    expect(p(3).points).toBe(1.5);
    // No. 31: bye in round 1 ("-1"), lost to No. 8 on board 8 (0 - 1).
    expect(p(31).history).toEqual([{ kind: 'pab' }, { kind: 'game', opponent: 8, colour: 'white', result: 'loss' }]);
    // No. 32: absent ("-0"), then beat No. 23 (0 - 1 on board 16).
    expect(p(32).history).toEqual([{ kind: 'absent' }, { kind: 'game', opponent: 23, colour: 'black', result: 'win' }]);
    // No. 21: forfeit loss to No. 6, then forfeited to No. 28 ("- - +").
    expect(p(21).history.map((h) => h.kind === 'game' && h.result)).toEqual(['forfeitLoss', 'forfeitLoss']);
    // Boards 3, 4, 6, 10, 11, 12 and 13 of round 2 have no result.
    expect(assumed.map((a) => a.white)).toEqual([3, 11, 13, 17, 19, 27, 29].sort((a, b) => a - b));
    expect(state.players.every((x) => x.history.length === 2 && x.absentNextRound === false)).toBe(true);
  });
});

/**
 * A stand-in engine with a rule simple enough to work out by hand (this tests the plumbing, not the
 * Dutch system): order by points, then starting number; pair neighbours, the first of each pair White.
 */
function neighbourEngine(seen: EngineTournamentState[]): PairingEngine {
  return {
    pairNextRound(state) {
      seen.push(state);
      const order = [...state.players].sort((a, b) => b.points - a.points || a.startingRank - b.startingRank);
      const boards = [];
      for (let i = 0; i + 1 < order.length; i += 2) boards.push({ board: i / 2 + 1, white: order[i].startingRank, black: order[i + 1].startingRank });
      return { boards, byes: order.length % 2 ? [order[order.length - 1].startingRank] : [] };
    },
  };
}

describe('pairingsEstimate', () => {
  test('boards carry names, ratings and points before the round; games in play are listed as assumed draws', async () => {
    const seen: EngineTournamentState[] = [];
    const r = await pairingsEstimate(ctx, { tnr: '1473782' }, neighbourEngine(seen));
    expect(r.round).toBe(3);
    expect(r.isEstimate).toBe(true);
    expect(r.snapshotAt).toBe('2026-08-10T14:10:00.000Z');
    // Points after round 2 with the open games drawn. Every round-1 winner had 1; in round 2 these won:
    // No. 1 (1 - 0 v 10), No. 2 (0 - 1 as Black v 9), No. 5 (1 - 0 v 14), No. 8 (0 - 1 as Black v 31).
    // So the 2-point group is 1, 2, 5, 8: board 1 is 1 v 2, board 2 is 5 v 8.
    expect(r.boards[0]).toEqual({
      board: 1,
      white: { startingRank: 1, name: 'Hesham, Abdelrahman', rating: 2409, points: 2 },
      black: { startingRank: 2, name: 'Badr, Mahmoud Ali', rating: 2065, points: 2 },
    });
    expect([r.boards[1].white.startingRank, r.boards[1].black.startingRank]).toEqual([5, 8]);
    expect(r.byes).toEqual([]);
    expect(r.assumedResults[0]).toEqual({
      round: 2,
      white: { startingRank: 3, name: 'Al Jabri, Mohammed Ali' },
      black: { startingRank: 12, name: 'Alturkistani, Anas Abdulahad' },
      assumed: '½-½',
    });
    expect(seen).toHaveLength(1);
  });

  test('what-if: the target’s game in play is set to win, draw and loss in turn and the round re-paired', async () => {
    const seen: EngineTournamentState[] = [];
    const r = await pairingsEstimate(ctx, { tnr: '1473782', target: 'Al Jabri, Mohammed Ali' }, neighbourEngine(seen));
    expect(seen).toHaveLength(4); // the estimate, then one pairing per result
    const of = (s: EngineTournamentState, n: number) => s.players.find((x) => x.startingRank === n)!;
    expect([1, 2, 3].map((i) => of(seen[i], 3).history[1])).toEqual([
      { kind: 'game', opponent: 12, colour: 'white', result: 'win' },
      { kind: 'game', opponent: 12, colour: 'white', result: 'draw' },
      { kind: 'game', opponent: 12, colour: 'white', result: 'loss' },
    ]);
    expect([1, 2, 3].map((i) => of(seen[i], 12).history[1].kind === 'game' && (of(seen[i], 12).history[1] as { result: string }).result)).toEqual(['loss', 'draw', 'win']);
    // With a win No. 3 joins the 2-point group 1, 2, 3, 5, 8: neighbours 1–2, 3–5 → opponent 5 with White.
    expect(r.whatIf?.[0]).toEqual({ result: 'win', opponent: { startingRank: 5, name: 'Yousef, Abdullah.' }, colour: 'white', bye: false });
    expect(r.whatIf?.map((w) => w.result)).toEqual(['win', 'draw', 'loss']);
  });

  test('players round 3’s page lists as not paired are absent in the estimate and in every what-if pairing', async () => {
    // The British round-8 page's layout, made round 3 of this event: its first two rows become No. 5 (½) and No. 14 (0).
    const rows = britishUnpairedRound8().replace('Round 8 on', 'Round 3 on').split('<tr class="CRg');
    const r3 = rows.slice(0, 4).join('<tr class="CRg') + '</table></div>' + rows[rows.length - 1].slice(rows[rows.length - 1].indexOf('</table></div>') + 14);
    const html = r3.replace('snr=21">Golding, Alex', 'snr=5">Yousef, Abdullah.').replace('snr=47">Badacsonyi, Frankie', 'snr=14">Algethami, Sultan Mohammed T').replace('<td class="CRc">0</td>', '<td class="CRc">&frac12;</td>');
    const pages = { ...savedPages, pageIfAny: async (t: string, v: ChessResultsView) => (v.art === 2 && v.round === 3 ? { url: 'saved:r3', html, fetchedAt: FETCHED } : savedPage(t, v)) } as unknown as ChessResultsClient;
    const seen: EngineTournamentState[] = [];
    const r = await pairingsEstimate({ ...ctx, runtime: { chessResults: pages } } as unknown as Ctx, { tnr: '1473782', target: 'Al Jabri, Mohammed Ali' }, neighbourEngine(seen));
    expect(r.absent).toEqual([
      // The saved Jeddah list marks nobody for round 3: the round page alone names them.
      { startingRank: 5, name: 'Yousef, Abdullah.', kind: 'halfBye', seenOn: ['roundPage'] },
      { startingRank: 14, name: 'Algethami, Sultan Mohammed T', kind: 'zeroBye', seenOn: ['roundPage'] },
    ]);
    expect(seen).toHaveLength(4); // the estimate and three what-if pairings
    for (const st of seen) expect(st.players.filter((p) => p.absentNextRound).map((p) => p.startingRank)).toEqual([5, 14]);
  });

  test('the engine’s NoLegalPairingError becomes the fixed 409', async () => {
    const refusing: PairingEngine = {
      pairNextRound() {
        throw new NoLegalPairingError('every pairing is a rematch');
      },
    };
    await expect(pairingsEstimate(ctx, { tnr: '1473782' }, refusing)).rejects.toMatchObject({
      status: 409,
      message: 'no legal pairing was found for the requested round: every pairing is a rematch',
    });
  });
});

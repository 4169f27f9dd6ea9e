import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { parseTrf, pairNextRound, type Pairing } from '../../../src/chess/pairing/index.js';
import { estimatePairings } from '../../../tools/tournaments/estimate_pairings.js';
import { estimateRound1 } from '../../../tools/tournaments/estimate_round1.js';
import { largeCases, type RefCase } from '../../bench/pairing.js';
import { makeTestApp, type TestApp } from '../../helpers/app.js';
import type { ChessResultsClient } from '../../../src/sources/chessresults/client.js';
import { loadAbsences } from '../../../src/services/tournaments/absences.js';
import { loadSeedList, loadTournament } from '../../../src/services/tournaments/load.js';
import { chessResultsServer, useClient, type Pages } from '../../helpers/chessResultsFixture.js';
import { casePages } from '../../helpers/chessResultsRender.js';
import type { FixtureServer } from '../../helpers/fixtureServer.js';
import { fixturePath } from '../../helpers/fixtures.js';

/**
 * Read through chess-results pages, the estimate equals the engine fed the case's file: every knownAbsences
 * case of the large set (test/fixtures/pairing/large), written as the site's pages (its absences as the round's
 * `not paired` rows), served by the local fixture server and read by the estimate tools end to end.
 */
type Answer = {
  round: number;
  boards: Array<{ board: number; white: { startingRank: number }; black: { startingRank: number } }>;
  byes: Array<{ startingRank: number }>;
  absent: Array<{ startingRank: number; kind: string; seenOn: string[] }>;
  coloursReliable?: boolean;
};

const cases = largeCases().filter((c) => c.expected.subset === 'knownAbsences');
const tnrOf = (c: RefCase) => String(2_000_000 + Number(c.id));
const pagesByTnr = new Map<string, Pages>(cases.map((c) => [tnrOf(c), casePages(parseTrf(c.trf), c.expected.absentNextRound, tnrOf(c))]));
/** The saved pair (test/fixtures/sources/chessresults/case0001, SOURCES.md there): case 0001 at round 4 of 8. */
const saved = (name: string) => readFileSync(fixturePath(`sources/chessresults/case0001/${name}.html`), 'utf8');
const savedPages = (): Pages => ({ art0: saved('art0'), art5: saved('art5'), art2rd4: saved('art2rd4'), art2rd5: saved('art2rd5'), art40: saved('art40') });

/** The same pages under another number, without the round to pair's own page: only the list names who is out. */
const listOnlyTnr = (c: RefCase) => String(3_000_000 + Number(c.id));
for (const c of cases) {
  const { [`art2rd${c.expected.round}` as const]: _roundPage, ...rest } = pagesByTnr.get(tnrOf(c))!;
  pagesByTnr.set(listOnlyTnr(c), rest);
}

let app: TestApp;
let server: FixtureServer;
let client: ChessResultsClient;
beforeAll(async () => {
  app = makeTestApp();
  ({ server } = await chessResultsServer([...pagesByTnr.keys()], (tnr) => pagesByTnr.get(tnr)!));
  client = useClient(app, server);
});
/** One more tournament number on the fixture server, answering its pages by `art`/`rd`, 404 for any other. */
function serve(tnr: string, pages: Pages): string {
  server.route(`/tnr${tnr}.aspx`, (_q, res, url) => {
    const body = pages[`art${url.searchParams.get('art')}${url.searchParams.get('rd') ? `rd${url.searchParams.get('rd')}` : ''}` as keyof Pages];
    if (!body) return void res.writeHead(404).end('not found');
    res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end(body);
  });
  return tnr;
}
afterAll(async () => {
  await server?.close();
  await app?.close();
});

const seats = (a: Answer): Pairing => ({
  boards: a.boards.map((b) => ({ board: b.board, white: b.white.startingRank, black: b.black.startingRank })),
  byes: a.byes.map((b) => b.startingRank),
});
const absences = (c: RefCase) =>
  c.expected.absentNextRound.map((a) => ({ startingRank: a.player, kind: a.kind === 'H' ? 'halfBye' : 'zeroBye', seenOn: ['roundPage', 'notPairedList'] }));

describe('the saved pages of case 0001 (round 5 of 8 to pair; No. 22 ½, No. 27 0 not paired)', () => {
  const c0001 = () => cases.find((x) => x.id === '0001')!;
  test('the estimate leaves out both, reports their kind from the round page, and is bbpPairings’s round exactly', async () => {
    const before = server.requests.length;
    const r = await app.call(estimatePairings, { tnr: serve('1999999', savedPages()) });
    expect(r.status).toBe(200);
    const a = r.body as Answer;
    expect(a.round).toBe(5);
    expect(a.absent).toEqual([
      { startingRank: 22, name: 'Test0022 Player0022', kind: 'halfBye', seenOn: ['roundPage', 'notPairedList'] },
      { startingRank: 27, name: 'Test0027 Player0027', kind: 'zeroBye', seenOn: ['roundPage', 'notPairedList'] },
    ]);
    expect(seats(a)).toEqual(c0001().expected.expected); // 22 boards, no bye (44 of 46 play)
    // Five requests: starting rank, crosstable, round 4, round 5's not-paired table, the not-paired list.
    expect(server.requests.slice(before).map((q) => new URL(q.path, 'http://x').search.replace(/&zeilen=99999&turdet=YES$/, ''))).toEqual([
      '?lan=1&art=0',
      '?lan=1&art=5',
      '?lan=1&art=2&rd=4',
      '?lan=1&art=2&rd=5',
      '?lan=1&art=40',
    ]);
  });

  test('without round 5’s page (a 404), the not-paired list alone names both: the same round, kinds unstated', async () => {
    const r = await app.call(estimatePairings, { tnr: serve('1999995', { ...savedPages(), art2rd5: undefined }) });
    expect(r.status).toBe(200);
    const a = r.body as Answer;
    // The list's `*` is a requested bye and an absence alike (CHESS-RESULTS.md A.4).
    expect(a.absent.map(({ startingRank, kind, seenOn }) => ({ startingRank, kind, seenOn }))).toEqual([
      { startingRank: 22, kind: 'halfByeOrAbsent', seenOn: ['notPairedList'] },
      { startingRank: 27, kind: 'halfByeOrAbsent', seenOn: ['notPairedList'] },
    ]);
    expect(seats(a)).toEqual(c0001().expected.expected);
  });

  test('without either page, the two are paired and the round shifts: the pages are what fix it', async () => {
    const r = await app.call(estimatePairings, { tnr: serve('1999998', { ...savedPages(), art2rd5: undefined, art40: undefined }) });
    expect(r.status).toBe(200);
    const a = r.body as Answer;
    expect(a.absent).toEqual([]);
    expect(a.boards).toHaveLength(23);
    expect(seats(a).boards).not.toEqual(c0001().expected.expected.boards);
  });

  test('a round-5 page whose table cannot be read is the fixed 502', async () => {
    const renamed = saved('art2rd5').replace('<th class="CRc">Result</th>', '<th class="CRc">Score</th>');
    const r = await app.call(estimatePairings, { tnr: serve('1999997', { ...savedPages(), art2rd5: renamed }) });
    expect(r.status).toBe(502);
    expect((r.body as { error: string }).error).toMatch(/^the tournament source could not be read \(page layout changed or fetch failed\): pairings: no table with the columns Bo\., White, Result, Black/);
  });

  test('a round-5 page that already holds a real board (paired after the navigation was read) is the fixed 502', async () => {
    const rd4AsRd5 = saved('art2rd4').replace(/<h3>Round 4 on /, '<h3>Round 5 on ');
    const r = await app.call(estimatePairings, { tnr: serve('1999996', { ...savedPages(), art2rd5: rd4AsRd5 }) });
    expect(r.status).toBe(502);
    expect((r.body as { error: string }).error).toMatch(/round 5 is paired on its page, but the navigation links only 4 rounds$/);
  });

  // The saved list's row of No. 44 (round 4: "bye", the crosstable's "-1") and of No. 27 (round 5: "*").
  const row44 = /(Test0044 Player0044<\/td>(?:<td[^>]*>[^<]*<\/td>){2})((?:<td class="CRc">[^<]*<\/td>){8})/;
  const marks = (cells: string[]) => cells.map((m) => `<td class="CRc">${m}</td>`).join('');
  test('a list that disagrees with the crosstable on a round played is the fixed 502: the pages are not one snapshot', async () => {
    const list = saved('art40').replace(row44, (_m, head: string) => head + marks(['', '', '', '', '', '', '', '']));
    const r = await app.call(estimatePairings, { tnr: serve('1999994', { ...savedPages(), art40: list }) });
    expect(r.status).toBe(502);
    expect((r.body as { error: string }).error).toMatch(/not paired: player 44's round 4 is not marked, the crosstable shows fullBye$/);
  });

  test('a list marking a round-5 forfeit is the fixed 502 (the round was paired since); a round-5 bye is a full-point bye given in advance', async () => {
    const forfeit = saved('art40').replace(row44, (_m, head: string) => head + marks(['', '', '', 'bye', '0F', '', '', '']));
    const r = await app.call(estimatePairings, { tnr: serve('1999993', { ...savedPages(), art40: forfeit }) });
    expect(r.status).toBe(502);
    expect((r.body as { error: string }).error).toMatch(/not paired: round 5 shows a forfeit for player 44, so it was paired after the navigation was read$/);
    const given = saved('art40').replace(row44, (_m, head: string) => head + marks(['', '', '', 'bye', 'bye', '', '', '']));
    const r2 = await app.call(estimatePairings, { tnr: serve('1999990', { ...savedPages(), art40: given }) });
    expect(r2.status).toBe(200);
    expect((r2.body as Answer).absent.map(({ startingRank, kind, seenOn }) => ({ startingRank, kind, seenOn }))).toEqual([
      { startingRank: 22, kind: 'halfBye', seenOn: ['roundPage', 'notPairedList'] },
      { startingRank: 27, kind: 'zeroBye', seenOn: ['roundPage', 'notPairedList'] },
      { startingRank: 44, kind: 'fullBye', seenOn: ['notPairedList'] },
    ]);
    expect((r2.body as Answer).boards.flatMap((b) => [b.white.startingRank, b.black.startingRank])).not.toContain(44);
  });

  test('a list whose layout cannot be read (an unknown mark, a missing SNo column) is the fixed 502', async () => {
    const odd = saved('art40').replace(row44, (_m, head: string) => head + marks(['', '', '', 'bye', '½', '', '', '']));
    const r1 = await app.call(estimatePairings, { tnr: serve('1999992', { ...savedPages(), art40: odd }) });
    expect(r1.status).toBe(502);
    expect((r1.body as { error: string }).error).toMatch(/not paired: player 44 round 5: mark "½" is not one of \*, bye, 0F$/);
    const renamed = saved('art40').replace('<th class="CRc">SNo</th>', '<th class="CRc">No.</th>');
    const r2 = await app.call(estimatePairings, { tnr: serve('1999991', { ...savedPages(), art40: renamed }) });
    expect(r2.status).toBe(502);
    expect((r2.body as { error: string }).error).toMatch(/not paired: no table with the columns SNo, Name/);
  });
});

describe('estimates read from chess-results pages equal the file-fed engine', () => {
  test('later rounds: same boards, colours and bye on every knownAbsences case (270)', async () => {
    const later = cases.filter((c) => c.expected.round > 1);
    expect(later).toHaveLength(270);
    const differ: string[] = [];
    for (const c of later) {
      const r = await app.call(estimatePairings, { tnr: tnrOf(c) });
      expect(r.status, c.id).toBe(200);
      const a = r.body as Answer;
      expect(a.round).toBe(c.expected.round);
      expect(a.absent.map(({ startingRank, kind, seenOn }) => ({ startingRank, kind, seenOn }))).toEqual(absences(c));
      if (JSON.stringify(seats(a)) !== JSON.stringify(pairNextRound(parseTrf(c.trf)))) differ.push(c.id);
    }
    expect(differ).toEqual([]);
  }, 600_000); // two engine runs per case; the engine now searches deeper on large brackets

  test('round 1: same boards and bye on every knownAbsences case (30); colours too where the lot is White, the one assumed', async () => {
    const first = cases.filter((c) => c.expected.round === 1);
    expect(first).toHaveLength(30);
    for (const c of first) {
      const r = await app.call(estimateRound1, { tnr: tnrOf(c) });
      expect(r.status, c.id).toBe(200);
      const a = r.body as Answer;
      expect(a.absent.map(({ startingRank, kind, seenOn }) => ({ startingRank, kind, seenOn }))).toEqual(absences(c));
      expect(a.coloursReliable).toBe(false); // round 1 is not published: the lot is unknown
      const file = pairNextRound(parseTrf(c.trf));
      const got = seats(a);
      const unordered = (p: Pairing) => p.boards.map((b) => [b.board, Math.min(b.white, b.black), Math.max(b.white, b.black)]);
      expect(unordered(got), c.id).toEqual(unordered(file));
      expect(got.byes, c.id).toEqual(file.byes);
      if (c.expected.initialColour === 'white') expect(got, c.id).toEqual(file);
      // The engine agrees with the reference on every round-1 case, so this is bbpPairings's round too.
      expect(unordered(file)).toEqual(unordered(c.expected.expected));
    }
  }, 60_000);
});

describe('the not-paired list alone (the round to pair’s own page a 404)', () => {
  test('names exactly the players the case has absent, on every knownAbsences case (270 later rounds, 30 rounds 1)', async () => {
    const named: Record<string, number[]> = {};
    const expected: Record<string, number[]> = {};
    for (const c of cases) {
      const tnr = listOnlyTnr(c);
      const absent =
        c.expected.round === 1
          ? (await loadAbsences(client, tnr, 1, (await loadSeedList(client, tnr)).players)).absences
          : (await loadTournament(client, tnr, { nextRoundAbsences: true })).nextRoundAbsences;
      expect(absent.every((a) => a.kind === 'halfByeOrAbsent' && a.seenOn.join() === 'notPairedList'), c.id).toBe(true);
      named[c.id] = absent.map((a) => a.startingRank);
      expected[c.id] = c.expected.absentNextRound.map((a) => a.player).sort((x, y) => x - y);
    }
    expect(named).toEqual(expected);
  }, 120_000);
});

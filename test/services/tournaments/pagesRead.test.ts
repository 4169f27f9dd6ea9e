import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { parseTrf, pairNextRound, type Pairing } from '../../../src/chess/pairing/index.js';
import { estimatePairings } from '../../../tools/tournaments/estimate_pairings.js';
import { estimateRound1 } from '../../../tools/tournaments/estimate_round1.js';
import { largeCases, type RefCase } from '../../bench/pairing.js';
import { makeTestApp, type TestApp } from '../../helpers/app.js';
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
  absent: Array<{ startingRank: number; kind: string }>;
  coloursReliable?: boolean;
};

const cases = largeCases().filter((c) => c.expected.subset === 'knownAbsences');
const tnrOf = (c: RefCase) => String(2_000_000 + Number(c.id));
const pagesByTnr = new Map<string, Pages>(cases.map((c) => [tnrOf(c), casePages(parseTrf(c.trf), c.expected.absentNextRound, tnrOf(c))]));
/** The saved pair (test/fixtures/sources/chessresults/case0001, SOURCES.md there): case 0001 at round 4 of 8. */
const saved = (name: string) => readFileSync(fixturePath(`sources/chessresults/case0001/${name}.html`), 'utf8');
const savedPages = (): Pages => ({ art0: saved('art0'), art5: saved('art5'), art2rd4: saved('art2rd4'), art2rd5: saved('art2rd5') });

let app: TestApp;
let server: FixtureServer;
beforeAll(async () => {
  app = makeTestApp();
  ({ server } = await chessResultsServer([...pagesByTnr.keys()], (tnr) => pagesByTnr.get(tnr)!));
  useClient(app, server);
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
const absences = (c: RefCase) => c.expected.absentNextRound.map((a) => ({ startingRank: a.player, kind: a.kind === 'H' ? 'halfBye' : 'zeroBye' }));

describe('the saved pages of case 0001 (round 5 of 8 to pair; No. 22 ½, No. 27 0 not paired)', () => {
  test('the estimate leaves out both, reports their kind, and is bbpPairings’s round exactly', async () => {
    const before = server.requests.length;
    const r = await app.call(estimatePairings, { tnr: serve('1999999', savedPages()) });
    expect(r.status).toBe(200);
    const a = r.body as Answer;
    expect(a.round).toBe(5);
    expect(a.absent).toEqual([
      { startingRank: 22, name: 'Test0022 Player0022', kind: 'halfBye' },
      { startingRank: 27, name: 'Test0027 Player0027', kind: 'zeroBye' },
    ]);
    const c = cases.find((x) => x.id === '0001')!;
    expect(seats(a)).toEqual(c.expected.expected); // 22 boards, no bye (44 of 46 play)
    // Four requests: starting rank, crosstable, round 4, round 5's not-paired table.
    expect(server.requests.slice(before).map((q) => new URL(q.path, 'http://x').search.replace(/&zeilen=99999&turdet=YES$/, ''))).toEqual([
      '?lan=1&art=0',
      '?lan=1&art=5',
      '?lan=1&art=2&rd=4',
      '?lan=1&art=2&rd=5',
    ]);
  });

  test('without round 5’s table (a 404), the two are paired and the round shifts: the page is what fixes it', async () => {
    const r = await app.call(estimatePairings, { tnr: serve('1999998', { ...savedPages(), art2rd5: undefined }) });
    expect(r.status).toBe(200);
    const a = r.body as Answer;
    expect(a.absent).toEqual([]);
    expect(a.boards).toHaveLength(23);
    expect(seats(a).boards).not.toEqual(cases.find((x) => x.id === '0001')!.expected.expected.boards);
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
      expect(a.absent.map(({ startingRank, kind }) => ({ startingRank, kind }))).toEqual(absences(c));
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
      expect(a.absent.map(({ startingRank, kind }) => ({ startingRank, kind }))).toEqual(absences(c));
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

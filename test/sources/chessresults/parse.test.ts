import { describe, expect, test } from 'vitest';
import { SourceUnreadable } from '../../../src/sources/chessresults/errors.js';
import { parseCrosstable, parseMeta, parseNotPaired, parsePairings, parseStartingRank } from '../../../src/sources/chessresults/parse.js';
import { britishUnpairedRound8, finishedEvent, page } from './pages.js';

// Expected values read by eye from the saved HTML in test/fixtures/sources/chessresults/.

describe('page meta', () => {
  test('event name, the site’s "Last update" and the Rd.2/7 navigation', () => {
    const meta = parseMeta(page('startingrank'), 'starting rank');
    expect(meta).toEqual({
      name: 'Jeddah Season Chess Championship Qualifiers - 10 August 2026',
      lastUpdate: '2026-08-10T17:06:46',
      roundsPaired: 2,
      roundsTotal: 7,
    });
  });

  test('the "Show tournament details" gate and a truncated list are refused', () => {
    const gated = page('startingrank').replace('</form>', '<input type="submit" name="cb_alleDetails" value="Show tournament details"></form>');
    expect(() => parseMeta(gated, 'starting rank')).toThrow(/gate/);
    const cut = page('startingrank').replace('</table>', '</table><a href="x?zeilen=99999">Show complete list</a>');
    expect(() => parseMeta(cut, 'starting rank')).toThrow(/truncated/);
  });
});

describe('starting rank (art=0)', () => {
  const players = parseStartingRank(page('startingrank'));
  test('all 32 rows, with titles, ratings and federations', () => {
    expect(players).toHaveLength(32);
    expect(players[0]).toEqual({ startingRank: 1, name: 'Hesham, Abdelrahman', title: 'GM', rating: 2409, federation: 'EGY' });
    expect(players[16]).toMatchObject({ startingRank: 17, name: 'Abousamra, Tamer', title: 'ACM', rating: 1616 });
    expect(players[17]).toMatchObject({ startingRank: 18, name: 'Suffyan, Ahmed Yousif', title: 'FM', rating: 1612, federation: 'SUD' });
    expect(players[20]).toMatchObject({ startingRank: 21, name: 'Afia Naveed,', title: null, rating: 0, federation: 'PAK' });
    expect(players[31]).toMatchObject({ startingRank: 32, name: 'Abdel Rahman, Ahmed', rating: 2127 });
  });

  test('a renamed column fails loudly, naming the view and the missing column', () => {
    const renamed = page('startingrank').replace('<th class="CRr">Rtg</th>', '<th class="CRr">Elo</th>');
    expect(() => parseStartingRank(renamed)).toThrow(SourceUnreadable);
    expect(() => parseStartingRank(renamed)).toThrow(/starting rank: no Rtg/);
    const noName = page('startingrank').replace('<th class="CR">Name</th>', '<th class="CR">Player</th>');
    expect(() => parseStartingRank(noName)).toThrow(/starting rank: no table with the columns No\., Name/);
  });

  test('a row with a missing cell fails rather than shifting columns', () => {
    const short = page('startingrank').replace('<td class="CR">EGY</td><td class="CRr">2409</td>', '<td class="CRr">2409</td>');
    expect(() => parseStartingRank(short)).toThrow(/row 1 has 5 cells, the header 6/);
  });
});

describe('starting-rank crosstable (art=5)', () => {
  const rows = parseCrosstable(page('crosstable'));
  test('every round cell of every player', () => {
    expect(rows).toHaveLength(32);
    // No. 1: " 16b1" then " 10w" (paired, no result yet); Pts. 1
    expect(rows[0]).toEqual({
      startingRank: 1,
      name: 'Hesham Abdelrahman',
      rating: 2409,
      points: 1,
      rounds: [
        { kind: 'game', opponent: 16, colour: 'black', result: 'win' },
        { kind: 'game', opponent: 10, colour: 'white', result: null },
      ],
    });
    // No. 6: "21w+" forfeit win; No. 21: "6b-" forfeit loss
    expect(rows[5].rounds[0]).toEqual({ kind: 'game', opponent: 21, colour: 'white', result: 'forfeitWin' });
    expect(rows[20].rounds[0]).toEqual({ kind: 'game', opponent: 6, colour: 'black', result: 'forfeitLoss' });
    // No. 31: "-1" (bye) then "8w", Pts. 1; No. 32: "-0" then "23b", Pts. 0
    expect(rows[30]).toMatchObject({ points: 1, rounds: [{ kind: 'fullBye' }, { kind: 'game', opponent: 8, colour: 'white', result: null }] });
    expect(rows[31]).toMatchObject({ points: 0, rounds: [{ kind: 'zeroBye' }, { kind: 'game', opponent: 23, colour: 'black', result: null }] });
    // No. 16: "1w0", Pts. 0
    expect(rows[15]).toMatchObject({ points: 0, rounds: [{ opponent: 1, colour: 'white', result: 'loss' }, { opponent: 25 }] });
  });

  test('a cell outside the grammar, a wrong Pts. or an unmirrored game fails loudly', () => {
    expect(() => parseCrosstable(page('crosstable').replace('> 16b1<', '> 16x1<'))).toThrow(/player 1 round 1: cell "16x1"/);
    // No. 1 printed with 2 points although the cells sum to 1.
    expect(() => parseCrosstable(page('crosstable').replace('<td class="CRc"> 10w</td><td class="CRc">1</td>', '<td class="CRc"> 10w</td><td class="CRc">2</td>'))).toThrow(/player 1: Pts\. 2 is not the sum/);
    expect(() => parseCrosstable(page('crosstable').replace('> 16b1<', '> 15b1<'))).toThrow(/not mirrored/);
  });

  test('a renamed round column fails loudly', () => {
    const renamed = page('crosstable').replace('<td class="CRc">1.Rd</td>', '<td class="CRc">Rd 1</td>');
    expect(() => parseCrosstable(renamed)).toThrow(/crosstable: round columns out of order|crosstable: no round columns/);
  });
});

describe('round pairings (art=2)', () => {
  test('round 2 in play: 16 boards, results, forfeits and games without a result', () => {
    const r = parsePairings(page('r2_live'), 2)!;
    expect(r.round).toBe(2);
    expect(r.boards).toHaveLength(16);
    expect(r.boards[0]).toEqual({
      board: 1,
      white: { startingRank: 1, name: 'Hesham, Abdelrahman', rating: 2409, points: 1 },
      black: { startingRank: 10, name: 'Magdy Shashet, Mohamed', rating: 1746, points: 1 },
      result: '1-0',
      bye: null,
    });
    expect(r.boards[2]).toMatchObject({ white: { startingRank: 3 }, black: { startingRank: 12 }, result: null });
    expect(r.boards[6]).toMatchObject({ white: { startingRank: 15 }, black: { startingRank: 7 }, result: '½-½' });
    expect(r.boards[13]).toMatchObject({ white: { startingRank: 21 }, black: { startingRank: 28 }, result: '--+' });
    expect(r.boards[15]).toMatchObject({ white: { startingRank: 23 }, black: { startingRank: 32, rating: 2127 }, result: '0-1' });
  });

  test('a round asked for before it is paired: only its "not paired" rows (the British Championship, round 8 at round 7)', () => {
    const r = parsePairings(britishUnpairedRound8(), 8)!;
    // Five rows, no No. columns: starting numbers from the player links (snr=), 0 in the Result column.
    expect(r.boards.map((b) => [b.white.startingRank, b.white.name, b.black, b.bye])).toEqual([
      [21, 'Golding, Alex', null, { kind: 'not paired', points: 0 }],
      [47, 'Badacsonyi, Frankie', null, { kind: 'not paired', points: 0 }],
      [59, 'Mannion, Steve R', null, { kind: 'not paired', points: 0 }],
      [107, 'Ruddy, Rachel', null, { kind: 'not paired', points: 0 }],
      [108, 'Brown, Stephanie', null, { kind: 'not paired', points: 0 }],
    ]);
  });

  test('round 1 published: the bye row, the not-paired row and board 1 with No. 1 Black', () => {
    const r = parsePairings(page('r1'), 1)!;
    expect(r.boards[0]).toMatchObject({ board: 1, white: { startingRank: 16 }, black: { startingRank: 1 }, result: '0-1' });
    expect(r.boards.slice(-2).map((b) => [b.white.startingRank, b.bye])).toEqual([
      [31, { kind: 'bye', points: 1 }],
      [32, { kind: 'not paired', points: 0 }],
    ]);
  });

  test('round 3 not paired yet: no table → null (not an empty round)', () => {
    expect(parsePairings(page('r3_unpaired'), 3)).toBeNull();
  });

  test('asking for another round than the page shows, or a renamed Result column, fails loudly', () => {
    expect(() => parsePairings(page('r2_live'), 3)).toThrow(/asked for round 3, the page shows round 2/);
    const renamed = page('r2_live').replace('<th class="CRc">Result</th>', '<th class="CRc">Res.</th>');
    expect(() => parsePairings(renamed, 2)).toThrow(/pairings: no table with the columns Bo\., White, Result, Black/);
  });

  test('a result cell in an unknown form fails loudly', () => {
    const odd = page('r2_live').replace('<td class="CRc">1 - 0</td>', '<td class="CRc">1 : 0</td>');
    expect(() => parsePairings(odd, 2)).toThrow(/board row 1: result "1 : 0"/);
  });
});

describe('the not paired list (art=40)', () => {
  const marks = (rows: ReturnType<typeof parseNotPaired>, rank: number) => Object.fromEntries(rows.find((r) => r.startingRank === rank)!.marks);

  test('Jeddah during round 2: four rows, round 1 marked only (*, 0F twice, bye)', () => {
    const rows = parseNotPaired(page('notpaired_midevent'));
    expect(rows.map((r) => [r.startingRank, r.name, Object.fromEntries(r.marks)])).toEqual([
      [32, 'Abdel Rahman, Ahmed', { 1: 'notPaired' }],
      [21, 'Afia Naveed', { 1: 'forfeitLoss' }],
      [22, 'Akram Mahmood Bakhsh', { 1: 'forfeitLoss' }],
      [31, 'Yousef Saeed Almalki', { 1: 'pairingBye' }],
    ]);
  });

  test('the British Championship after round 9: 15 rows, titles apart from names, rounds by their header', () => {
    const rows = parseNotPaired(finishedEvent('british2026_champ').notPaired);
    expect(rows).toHaveLength(15);
    expect(rows.find((r) => r.startingRank === 47)!.name).toBe('Badacsonyi, Frankie'); // "FM" is the title column
    expect(marks(rows, 47)).toEqual({ 5: 'notPaired', 6: 'notPaired', 7: 'notPaired', 8: 'notPaired', 9: 'notPaired' });
    expect(marks(rows, 107)).toEqual({ 5: 'pairingBye', 8: 'notPaired', 9: 'notPaired' });
    expect(marks(rows, 62)).toEqual({ 8: 'forfeitLoss', 9: 'forfeitLoss' });
  });

  test('Frome after round 5: five round columns, no titles, 18 rows', () => {
    const rows = parseNotPaired(finishedEvent('frome2026_open').notPaired);
    expect(rows).toHaveLength(18);
    expect(marks(rows, 8)).toEqual({ 1: 'notPaired', 5: 'notPaired' });
    expect(marks(rows, 34)).toEqual({ 3: 'pairingBye' });
  });

  test('a page without the table lists nobody; another view, an unknown mark or a renamed column fails loudly', () => {
    expect(parseNotPaired(page('r3_unpaired').replace('<h2>Pairings/Results</h2>', '<h2>not paired</h2>'))).toEqual([]);
    expect(() => parseNotPaired(page('crosstable'))).toThrow(/: not paired: heading "not paired" missing$/);
    expect(() => parseNotPaired(page('notpaired_midevent').replace('<td class="CRc">bye</td>', '<td class="CRc">+</td>'))).toThrow(/player 31 round 1: mark "\+" is not one of/);
    expect(() => parseNotPaired(page('notpaired_midevent').replace('>SNo<', '>No.<'))).toThrow(/no table with the columns SNo, Name/);
  });
});

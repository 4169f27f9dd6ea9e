import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { eq } from 'drizzle-orm';
import { afterEach, describe, expect, it } from 'vitest';
import { importPgnLines, playedAtOf } from '../../../src/services/games/imports.js';
import { games, users } from '../../../src/store/schema/index.js';
import { makeTestApp, type TestApp } from '../../helpers/app.js';

let app: TestApp;
afterEach(async () => app?.close());

const LIBRARY = join(import.meta.dirname, '../../../data/library');
const game = (slug: string) => readFileSync(join(LIBRARY, slug, 'game.pgn'), 'utf8').trim();
const withDate = (pgn: string, date: string) => pgn.replace(/^\[Date "[^"]*"\]$/m, `[Date "${date}"]`);

describe('PGN dates (standard 8.1.1.3: unknown parts are "??")', () => {
  it('a year alone or a year and month is placed on the first day of the period, and the text is kept', () => {
    expect(playedAtOf({ Date: '1934.??.??' })).toEqual({ playedAt: '1934-01-01T12:00:00.000Z', dateText: '1934.??.??' });
    expect(playedAtOf({ Date: '1934.05.??' })).toEqual({ playedAt: '1934-05-01T12:00:00.000Z', dateText: '1934.05.??' });
    expect(playedAtOf({ Date: '1934.05.17' })).toEqual({ playedAt: '1934-05-17T12:00:00.000Z', dateText: null });
    expect(playedAtOf({ Date: '1934' })).toEqual({ playedAt: '1934-01-01T12:00:00.000Z', dateText: '1934' });
    expect(playedAtOf({ Date: '2025.03.09', UTCDate: '2025.03.09', UTCTime: '14:30:22' })).toEqual({ playedAt: '2025-03-09T14:30:22.000Z', dateText: null });
  });

  it('no year, a day without a month, or a day that does not exist is refused with how to fix it', () => {
    for (const d of ['????.??.??', '', '?', 'yesterday']) {
      expect(playedAtOf({ Date: d })).toEqual({ refused: `the game has no usable date (Date "${d}"): set at least the year in the Date tag, e.g. [Date "1934.??.??"] (unknown month and day as ??)` });
    }
    expect(playedAtOf({})).toMatchObject({ refused: expect.stringContaining('set at least the year') });
    expect(playedAtOf({ Date: '1934.??.17' })).toMatchObject({ refused: expect.stringContaining('a day without a month') });
    expect(playedAtOf({ Date: '2025.02.30' })).toEqual({ refused: 'the game\'s date does not exist (Date "2025.02.30")' });
  });

  it('a historical file imports every game with a year; the one without is reported by index with the fix', async () => {
    app = makeTestApp();
    const { user } = app.addUser('Alexander Alekhine');
    const me = app.deps.store.db.select().from(users).where(eq(users.id, user.id)).get()!;
    // Four real games of the shipped library; the Date tags are as the library has them except where set here.
    const file = [
      game('alekhine-lasker-1934'), // 1934.??.??
      withDate(game('alekhine-nimzowitsch-1930'), '1930.04.??'),
      withDate(game('capablanca-alekhine-1927-g21'), '????.??.??'),
      game('reti-alekhine-1925'),
      game('bogoljubow-alekhine-1922').replace(/ 2\. /, ' } 2. '), // a stray brace on line 10 of the game (its first movetext line)
    ].join('\n\n');
    const report = await importPgnLines(app.deps, me, file.split('\n'), { as: 'Alekhine, Alexander' });
    expect(report.errors).toEqual([
      expect.objectContaining({ index: 3, reason: 'the game has no usable date (Date "????.??.??"): set at least the year in the Date tag, e.g. [Date "1934.??.??"] (unknown month and day as ??)' }),
      expect.objectContaining({ index: 5, reason: 'unparseable PGN: a } near "1. d4 f5 } 2. c4 Nf6" (line 10) closes no comment' }),
    ]);
    expect(report.imported).toBe(3);
    const rows = app.deps.store.db.select().from(games).where(eq(games.userId, user.id)).orderBy(games.playedAt).all();
    const lasker = rows.find((r) => r.opponent === 'Lasker, Emanuel')!;
    expect(lasker).toMatchObject({ playedAt: '1934-01-01T12:00:00.000Z', dateText: '1934.??.??' });
    expect(rows.some((r) => r.playedAt === '1930-04-01T12:00:00.000Z' && r.dateText === '1930.04.??')).toBe(true);
  });
});

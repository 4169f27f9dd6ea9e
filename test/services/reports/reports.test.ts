import { createHash } from 'node:crypto';
import { afterEach, beforeEach, describe, expect, test } from 'vitest';
import { WeeklyReport } from '../../../schemas/aggregates.js';
import { renderReportPage } from '../../../src/services/reports/reportPage.js';
import { startReportScheduler } from '../../../src/services/reports/reportScheduler.js';
import { generateReport, lastClosedWeekEnd, latestReportRow } from '../../../src/services/reports/reports.js';
import { puzzleAttempts, ratingPoints } from '../../../src/store/schema/index.js';
import { getWeeklyReport } from '../../../tools/aggregates/get_weekly_report.js';
import { makeTestApp, type TestApp } from '../../helpers/app.js';
import { addGames, gameRow } from '../../helpers/gameRows.js';
import { reportHtml } from '../../../src/services/reports/reportPage.js';
import { decodeWords, headerOf, mimeParts, startSmtpServer } from '../../helpers/smtpServer.js';

test.each([
  ['2026-11-20T12:00:00Z', '2026-11-13'], // Friday noon: that week is still open
  ['2026-11-20T23:59:59Z', '2026-11-13'],
  ['2026-11-21T00:00:00Z', '2026-11-20'], // Saturday 00:00: the week ending Friday 20 has closed
  ['2026-11-19T08:00:00Z', '2026-11-13'], // Thursday
  ['2026-11-23T08:00:00Z', '2026-11-20'], // Monday
])('last closed week at %s ends %s', (now, friday) => {
  expect(lastClosedWeekEnd(new Date(now))).toBe(friday);
});

let app: TestApp;
let token: string;
let userId: string;
let ids: string[];
const BASE = 'http://example.test';

beforeEach(() => {
  app = makeTestApp({ now: '2026-11-20T12:00:00Z' });
  ({ token, user: { id: userId } } = app.addUser('Ann Player', 'ann@example.test'));
  // The week ending Friday 2026-11-20 runs Saturday 2026-11-14 .. Friday 2026-11-20.
  ids = addGames(app.deps.store, app.clock, [
    gameRow(userId, { playedAt: '2026-11-10T10:00:00.000Z', provider: 'siteA', timeClass: 'blitz', result: 'win', opponentRating: 1500, userRating: 1500, ratingDelta: 10 }), // before: 1510
    gameRow(userId, { playedAt: '2026-11-15T10:00:00.000Z', provider: 'siteA', timeClass: 'blitz', result: 'win', opponent: 'Bo <script>', opponentRating: 1600, userRating: 1510, ratingDelta: 8 }), // 1518
    gameRow(userId, { playedAt: '2026-11-16T10:00:00.000Z', provider: 'siteA', timeClass: 'blitz', result: 'loss', opponent: 'Cy', opponentRating: 1450, userRating: 1518, ratingDelta: -9 }), // 1509
    gameRow(userId, { playedAt: '2026-11-18T10:00:00.000Z', provider: 'siteA', timeClass: 'blitz', result: 'draw', opponentRating: 1520, userRating: 1509, ratingDelta: 0 }), // 1509
    gameRow(userId, { playedAt: '2026-11-19T19:00:00.000Z', provider: 'fed', timeClass: 'standard', result: 'loss', opponent: 'Di', opponentRating: 1900, userRating: 1750 }),
    gameRow(userId, { playedAt: '2026-11-21T01:00:00.000Z', provider: 'siteA', timeClass: 'blitz', result: 'win', opponentRating: 2000, userRating: 1509, ratingDelta: 12 }), // after the week
  ]);
  const p = (attemptedAt: string, win: boolean) => ({ userId, provider: 'siteB' as const, puzzleId: attemptedAt, attemptedAt, win, puzzleRating: 1800 });
  app.deps.store.db.insert(puzzleAttempts).values([p('2026-11-14T09:00:00.000Z', true), p('2026-11-20T23:00:00.000Z', false), p('2026-11-21T01:00:00.000Z', true)]).run();
  app.deps.store.db.insert(ratingPoints).values([
    { userId, provider: 'siteB', series: 'puzzle', date: '2026-11-01', rating: 1800 },
    { userId, provider: 'siteB', series: 'puzzle', date: '2026-11-17', rating: 1830 },
  ]).run();
});
afterEach(() => app.close());

/** As served to a request that reached BASE. */
async function latest(t = token, origin = BASE) {
  return app.call(getWeeklyReport, {}, t, { surface: 'rest', key: 'test', origin });
}

describe('get_weekly_report', () => {
  test('404 before any report, saying none exists and when the next is due', async () => {
    const out = await latest();
    expect(out.status).toBe(404);
    // Friday 2026-11-20 noon: the last closed week ended 2026-11-13; the next closes 2026-11-21 00:00
    expect((out.body as { error: string }).error).toMatch(/no weekly report has been generated yet; the next one is due at 2026-11-21T00:00:00.000Z/);
  });

  test('the week’s sections, rating lines, best win, toughest defeat and puzzles', async () => {
    app.clock.set('2026-11-21T00:05:00Z');
    generateReport(app.deps.store, app.clock, userId, '2026-11-20');
    const out = await latest();
    expect(out.status).toBe(200);
    const r = WeeklyReport.parse(out.body);
    expect([r.weekStart, r.weekEnd, r.generatedAt]).toEqual(['2026-11-14', '2026-11-20', '2026-11-21T00:05:00.000Z']);
    expect(r.shareUrl).toMatch(/^http:\/\/example\.test\/share\/reports\/[A-Za-z0-9_-]{43}$/);
    const a = r.sections.siteA;
    // In the week: W (1600), L (1450), D (1520) → score 1.5 / 3 = 50 %
    expect(a.games).toBe(3);
    expect(a.results).toEqual({ games: 3, win: 1, draw: 1, loss: 1, winRate: 33.3, score: 50 });
    // Seeded 1510 from 11-10; 1518, 1509, 1509 → delta −1 (the Saturday-after game is not counted)
    expect(a.ratingLines).toEqual([
      { provider: 'siteA', timeClass: 'blitz', points: [{ date: '2026-11-15', rating: 1518 }, { date: '2026-11-16', rating: 1509 }, { date: '2026-11-18', rating: 1509 }], pointsDownsampled: false, start: 1510, end: 1509, delta: -1, seededFromBefore: true },
    ]);
    expect(a.bestWin).toMatchObject({ gameId: ids[1], opponentRating: 1600 });
    expect(a.toughestDefeat).toMatchObject({ gameId: ids[2], opponentRating: 1450 });
    expect(r.sections.siteB).toMatchObject({ games: 0, ratingLines: [], bestWin: null, toughestDefeat: null });
    expect(r.sections.fed).toMatchObject({ games: 1, bestWin: null, toughestDefeat: { gameId: ids[4], opponentRating: 1900 } });
    expect(r.sections.fed.ratingLines).toMatchObject([{ timeClass: 'standard', start: 1750, end: 1750, delta: 0 }]);
    // Puzzles 11-14 W and 11-20 23:00 L (the 11-21 one is next week); rating seeded 1800 → 1830
    expect(r.puzzles).toEqual({ attempts: 2, solved: 1, winRate: 50, siteBRating: { start: 1800, end: 1830, delta: 30 } });
  });

  test('frozen: games synced later do not change it, and generating again returns the stored one', async () => {
    app.clock.set('2026-11-21T00:05:00Z');
    const first = generateReport(app.deps.store, app.clock, userId, '2026-11-20');
    expect(first.created).toBe(true);
    const before = (await latest()).body;
    // A late sync brings two more games of that week.
    addGames(app.deps.store, app.clock, [
      gameRow(userId, { playedAt: '2026-11-17T10:00:00.000Z', provider: 'siteA', timeClass: 'blitz', result: 'win', opponentRating: 2400, userRating: 1509, ratingDelta: 20 }),
      gameRow(userId, { playedAt: '2026-11-17T11:00:00.000Z', provider: 'siteB', timeClass: 'rapid', result: 'loss', opponentRating: 1000 }),
    ]);
    app.clock.set('2026-11-22T09:00:00Z');
    const again = generateReport(app.deps.store, app.clock, userId, '2026-11-20');
    expect(again.created).toBe(false);
    expect(again.row.shareToken).toBe(first.row.shareToken);
    expect((await latest()).body).toEqual(before);
    expect((before as { sections: { siteA: { games: number } } }).sections.siteA.games).toBe(3);
  });

  test('the newest week is returned; another account sees only its own (404)', async () => {
    app.clock.set('2026-11-21T00:05:00Z');
    generateReport(app.deps.store, app.clock, userId, '2026-11-20');
    generateReport(app.deps.store, app.clock, userId, '2026-11-13');
    expect(WeeklyReport.parse((await latest()).body).weekEnd).toBe('2026-11-20');
    const other = app.addUser();
    expect((await latest(other.token)).status).toBe(404);
  });

  test('a week must end on a Friday', () => {
    expect(() => generateReport(app.deps.store, app.clock, userId, '2026-11-19')).toThrow(/not a Friday/);
  });
});

const shareTokenOf = (url: string) => url.split('/').at(-1)!;

describe('share links', () => {
  test('built when read: from the origin serving the request, the same unguessable path each time', async () => {
    app.clock.set('2026-11-21T00:05:00Z');
    generateReport(app.deps.store, app.clock, userId, '2026-11-20');
    const here = WeeklyReport.parse((await latest(token, 'http://127.0.0.1:4123')).body).shareUrl;
    const there = WeeklyReport.parse((await latest(token, 'https://chess.example.org')).body).shareUrl;
    expect(here).toMatch(/^http:\/\/127\.0\.0\.1:4123\/share\/reports\/[A-Za-z0-9_-]{43}$/);
    expect(there).toBe(here.replace('http://127.0.0.1:4123', 'https://chess.example.org'));
    // Over stdio there is no request origin: the configured address (HOST:PORT) is the base.
    expect(WeeklyReport.parse((await app.call(getWeeklyReport, {}, token)).body).shareUrl).toBe(here.replace('127.0.0.1:4123', '127.0.0.1:3000'));
  });

  test('CFP_PUBLIC_URL, when set, wins over the request origin', async () => {
    const pub = makeTestApp({ now: '2026-11-21T00:05:00Z', env: { CFP_PUBLIC_URL: 'https://chess.example.org/' } });
    try {
      const { token: t, user } = pub.addUser();
      generateReport(pub.deps.store, pub.clock, user.id, '2026-11-20');
      const out = await pub.call(getWeeklyReport, {}, t, { surface: 'rest', key: 'test', origin: 'http://127.0.0.1:9999' });
      expect(WeeklyReport.parse(out.body).shareUrl).toMatch(/^https:\/\/chess\.example\.org\/share\/reports\/[A-Za-z0-9_-]{43}$/);
    } finally {
      await pub.close();
    }
  });

  test('the store holds neither the link nor its token: only the token\'s SHA-256, which opens the page', async () => {
    app.clock.set('2026-11-21T00:05:00Z');
    const { row } = generateReport(app.deps.store, app.clock, userId, '2026-11-20');
    const shareToken = shareTokenOf(WeeklyReport.parse((await latest()).body).shareUrl);
    expect(row.payload).not.toContain(shareToken);
    expect(row.payload).not.toContain('shareUrl');
    expect(row.shareToken).toBe(createHash('sha256').update(shareToken).digest('hex'));
    expect(renderReportPage(app.deps.store, shareToken)).toContain('Chess week 2026-11-14 to 2026-11-20');
    // The fingerprint itself is not a key to the page.
    expect(renderReportPage(app.deps.store, row.shareToken)).toBeNull();
  });
});

describe('share page', () => {
  test('a readable standalone page of the frozen payload, with an inline SVG chart, escaped', async () => {
    app.clock.set('2026-11-21T00:05:00Z');
    generateReport(app.deps.store, app.clock, userId, '2026-11-20');
    const html = renderReportPage(app.deps.store, shareTokenOf(WeeklyReport.parse((await latest()).body).shareUrl))!;
    expect(html.startsWith('<!doctype html>')).toBe(true);
    expect(html).toContain('<svg');
    expect(html).toContain('<polyline');
    expect(html).toContain('Chess week 2026-11-14 to 2026-11-20');
    expect(html).toContain('3 games: 1 won, 1 drawn, 1 lost (score 50%)');
    expect(html).toContain('blitz 1510 → 1509 (-1)');
    expect(html).toContain('Bo &lt;script&gt; (1600)');
    expect(html).not.toContain('<script>');
    expect(html).toContain('2 attempted, 1 solved (50%); lichess puzzle rating 1800 → 1830 (+30)');
    expect(html).not.toMatch(/https?:\/\/(?!www\.w3\.org)/); // standalone: no external resources
    expect(renderReportPage(app.deps.store, 'x'.repeat(43))).toBeNull();
    expect(renderReportPage(app.deps.store, '../etc')).toBeNull();
  });
});

describe('the scheduler and the Friday email', () => {
  test('generates the closed week for every account and emails it once, content matching the payload', async () => {
    const smtp = await startSmtpServer();
    const lines: string[] = [];
    app.clock.set('2026-11-21T00:05:00Z');
    const s = startReportScheduler(app.deps, {
      baseUrl: BASE,
      smtp: { host: '127.0.0.1', port: smtp.port, from: 'reports@example.test', user: 'u', pass: 'p', tls: 'none' },
      log: (l) => lines.push(l),
      intervalMs: 3_600_000,
    });
    await s.tick();
    await s.tick();
    s.stop();
    expect(lines).toEqual([]);
    expect(smtp.mails).toHaveLength(1);
    const mail = smtp.mails[0];
    expect(mail.from).toBe('reports@example.test');
    expect(mail.to).toEqual(['ann@example.test']);
    expect(mail.auth).toBe('\0u\0p');
    expect(decodeWords(headerOf(mail, 'subject'))).toBe('Your chess week 2026-11-14 to 2026-11-20');
    const payload = WeeklyReport.parse((await latest()).body);
    // Two parts: the report as text, and the report page with its rating chart as HTML.
    const [plain, html] = mimeParts(mail);
    expect(plain.type).toBe('text/plain');
    expect(html.type).toBe('text/html');
    expect(html.body).toBe(reportHtml(payload));
    expect(html.body).toContain('<svg');
    expect(html.body).toContain('Bo &lt;script&gt;');
    const text = plain.body;
    expect(text).toContain('Hello Ann Player,');
    expect(text).toContain('chess.com: 3 games: 1 won, 1 drawn, 1 lost (score 50%)');
    expect(text).toContain('Rating blitz 1510 → 1509 (-1)');
    expect(text).toContain('Best win: Bo <script> (1600) with white, 2026-11-15, blitz');
    expect(text).toContain('Toughest defeat: Cy (1450)');
    expect(text).toContain('lichess: no games');
    expect(text).toContain('Over the board (ECF): 1 game: 0 won, 0 drawn, 1 lost (score 0%)');
    expect(text).toContain('Puzzles: 2 attempted, 1 solved (50%); lichess puzzle rating 1800 → 1830 (+30)');
    expect(text).toContain(payload.shareUrl);
    expect(latestReportRow(app.deps.store, userId)!.emailedAt).toBe('2026-11-21T00:05:00.000Z');
    await smtp.close();
  });

  test('without SMTP nothing is sent and it says so once', async () => {
    const lines: string[] = [];
    app.clock.set('2026-11-21T00:05:00Z');
    const sent: unknown[] = [];
    const s = startReportScheduler(app.deps, { baseUrl: BASE, smtp: null, log: (l) => lines.push(l), send: async (_, m) => void sent.push(m) });
    await s.tick();
    await s.tick();
    s.stop();
    expect(lines).toHaveLength(1);
    // One short line (issue 45 item 5); the settings to set are on the Settings page (SMTP_SETUP_HINT).
    expect(lines[0]).toBe('weekly reports: kept, not emailed (no SMTP server set: Settings or docs/configuration.md)');
    expect(lines[0].length).toBeLessThan(100);
    expect(sent).toEqual([]);
    expect(latestReportRow(app.deps.store, userId)).toMatchObject({ weekEnd: '2026-11-20', emailedAt: null });
  });

  test('a refused email is retried on the next pass, and the report stays frozen', async () => {
    app.clock.set('2026-11-21T00:05:00Z');
    const lines: string[] = [];
    let fail = true;
    const sent: string[] = [];
    const s = startReportScheduler(app.deps, {
      baseUrl: BASE,
      smtp: { host: 'unused', port: 25, from: 'r@example.test', user: null, pass: null },
      log: (l) => lines.push(l),
      send: async (_, m) => {
        if (fail) throw new Error('550 mailbox unavailable');
        sent.push(m.to);
      },
    });
    await s.tick();
    expect(lines.some((l) => l.includes('550 mailbox unavailable'))).toBe(true);
    fail = false;
    await s.tick();
    s.stop();
    expect(sent).toEqual(['ann@example.test']);
  });
});

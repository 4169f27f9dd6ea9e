import { afterEach, describe, expect, test } from 'vitest';
import { textOf } from '../../../src/sources/chessresults/html.js';
import { parseStartingRank } from '../../../src/sources/chessresults/parse.js';
import { findTarget } from '../../../src/services/tournaments/target.js';
import { estimateRound1 } from '../../../tools/tournaments/estimate_round1.js';
import { makeTestApp, type TestApp } from '../../helpers/app.js';
import { chessResultsServer, jeddahPages, useClient } from '../../helpers/chessResultsFixture.js';
import type { FixtureServer } from '../../helpers/fixtureServer.js';
import { entitiesPage, JEDDAH_TNR } from './pages.js';

// The decoded names, from the table in test/fixtures/sources/chessresults/SOURCES.md (written by hand).
const DECODED: Record<number, string> = {
  5: 'Müller, Jörg',
  6: 'Öztürk, Şahin',
  8: 'Åström, Bjørn',
  13: 'Dvořák, Aleš',
  19: 'Nuñez & Sons, José',
  20: 'Łukasiewicz, Paweł',
};

describe('entities on chess-results pages', () => {
  test('every HTML5 named entity and numeric entity (decimal and hex) decodes', () => {
    expect(textOf('&Ouml;SB &copy; &#39;x&#39; &frac12; &hellip; &euro; &mdash; &#x1F600; &notit; &amp;amp; &unknownentity;')).toBe(
      "ÖSB © 'x' ½ … € — 😀 ¬it; &amp; &unknownentity;",
    );
  });

  test('the saved page with entity-written names parses to the real letters', () => {
    const players = parseStartingRank(entitiesPage());
    expect(players).toHaveLength(32);
    for (const [rank, name] of Object.entries(DECODED)) expect(players.find((p) => p.startingRank === Number(rank))!.name).toBe(name);
  });

  test('target matches case- and accent-insensitively, and with the accented letters typed', () => {
    const players = parseStartingRank(entitiesPage());
    const who = (t: string) => findTarget(players, t).startingRank;
    expect(who('Müller, Jörg')).toBe(5);
    expect(who('muller jorg')).toBe(5);
    expect(who('MULLER')).toBe(5);
    expect(who('ozturk sahin')).toBe(6);
    expect(who('ÖZTÜRK')).toBe(6);
    expect(who('astrom bjorn')).toBe(8);
    expect(who('dvorak, ales')).toBe(13);
    expect(who('DVOŘÁK')).toBe(13);
    expect(who('jose')).toBe(19);
    expect(who('lukasiewicz pawel')).toBe(20);
  });
});

describe('in a tool', () => {
  let app: TestApp;
  let server: FixtureServer;
  afterEach(async () => {
    await app?.close();
    await server?.close();
  });

  test('estimate_round1 names Müller and finds him as target "muller"', async () => {
    app = makeTestApp();
    ({ server } = await chessResultsServer([JEDDAH_TNR], () => ({ ...jeddahPages(), art0: entitiesPage() })));
    useClient(app, server);
    const r = await app.call(estimateRound1, { tnr: JEDDAH_TNR, target: 'muller' });
    expect(r.status).toBe(200);
    const body = r.body as { boards: Array<{ white: { name: string }; black: { name: string } }> };
    expect(body.boards).toHaveLength(1);
    expect([body.boards[0].white.name, body.boards[0].black.name]).toContain('Müller, Jörg');
  });
});

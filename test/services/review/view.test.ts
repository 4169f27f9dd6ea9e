import { afterEach, beforeEach, describe, expect, test } from 'vitest';
import { AnalysisResponse, CriticalMomentsResponse } from '../../../schemas/analysis.js';
import { parseTimeControl } from '../../../src/chess/clocks.js';
import { selectMoments } from '../../../src/chess/moments.js';
import { buildPlies } from '../../../src/chess/plyAnalysis.js';
import { movesKey } from '../../../src/chess/pgn.js';
import { DERIVATION_VERSION } from '../../../src/services/review/derive.js';
import { decodeView, encodeView } from '../../../src/services/review/view.js';
import { getCriticalMoments } from '../../../tools/analysis/get_critical_moments.js';
import { getGameAnalysis } from '../../../tools/analysis/get_game_analysis.js';
import { QUIET_FEN, quietGame } from '../../helpers/analysis.js';
import { makeTestApp, type TestApp } from '../../helpers/app.js';
import { insertReviewedGame } from '../../helpers/reviewed.js';

// A second engine line at the start, so the first ply has an alternative.
const analysis = () => quietGame({ 0: [{ score: 100, pv: 'Nc3 Nc6' }, { score: 80, pv: 'Nbd2' }] });
// 180+2: White's clock before ply 5 is the reading after ply 3, 12 s, under 10% of the base (18 s): time_trouble.
const CLOCKS = [178, 175, 12, 160, 10, 140];

let app: TestApp;
beforeEach(() => {
  app = makeTestApp();
});
afterEach(() => app.close());

const key = () => movesKey(QUIET_FEN, analysis().movesUci);
const storedView = () => decodeView((app.deps.store.sqlite.prepare('SELECT view FROM analyses WHERE moves_key = ?').get(key()) as { view: Buffer }).view);
const writeView = (v: ReturnType<typeof storedView>) => app.deps.store.sqlite.prepare('UPDATE analyses SET view = ? WHERE moves_key = ?').run(encodeView(v), key());

describe('the stored review view', () => {
  test("the analysis and moments views equal a fresh derivation with the owner's side and clocks laid on", async () => {
    const me = app.addUser();
    const id = insertReviewedGame(app.deps.store, me.user, analysis(), { colour: 'white', clocks: JSON.stringify(CLOCKS) });
    const owner = { userColour: 'white' as const, clocks: CLOCKS, timeControl: parseTimeControl('180+2') };
    const fresh = buildPlies(analysis(), owner);

    const body = AnalysisResponse.parse((await app.call(getGameAnalysis, { id }, me.token)).body);
    expect(body.plies).toEqual(fresh.map((p) => p.ply));
    expect(body.plies?.[4].concepts.at(-1)).toMatchObject({ id: 'time_trouble', evidence: { clockSecondsBefore: 12, thresholdSeconds: 18 } });
    expect(body.plies?.[0].alternatives.map((a) => a.move.san)).toEqual(['Nbd2']);

    for (const filters of [
      { side: 'both' as const, maxMoments: 40 },
      { side: 'user' as const, maxMoments: 40, minCentipawnLoss: 50 },
      { side: 'both' as const, maxMoments: 2, minCentipawnLoss: 100, minSeverity: 'major' as const },
    ]) {
      const got = CriticalMomentsResponse.parse((await app.call(getCriticalMoments, { id, ...filters }, me.token)).body);
      const want = selectMoments(fresh, analysis(), filters);
      expect(got.moments).toEqual(want.moments);
      expect([got.matching, got.truncated, got.matchingBySource]).toEqual([want.matching, want.truncated, want.matchingBySource]);
    }
  });

  test('the views read the stored classes and moments: a tampered stored view shows through, nothing is re-derived', async () => {
    const me = app.addUser();
    const id = insertReviewedGame(app.deps.store, me.user, analysis());
    const view = storedView();
    expect(view.plies[1].ply.classification).not.toBe('great');
    view.plies[1].ply.classification = 'great';
    const moment = view.plies.find((p) => p.moment)!;
    moment.moment!.summary = 'tampered summary';
    writeView(view);

    const body = AnalysisResponse.parse((await app.call(getGameAnalysis, { id }, me.token)).body);
    expect(body.plies?.[1].classification).toBe('great');
    const moments = CriticalMomentsResponse.parse((await app.call(getCriticalMoments, { id, minCentipawnLoss: 1 }, me.token)).body);
    expect(moments.moments?.find((m) => m.ply === moment.ply.ply)?.summary).toBe('tampered summary');
  });

  test('a row derived under an older version is derived again from its stored engine output on first read, view included', async () => {
    const me = app.addUser();
    const id = insertReviewedGame(app.deps.store, me.user, analysis());
    const before = storedView();
    app.deps.store.sqlite.prepare('UPDATE analyses SET view = NULL, derivation_version = ? WHERE moves_key = ?').run(DERIVATION_VERSION - 1, key());
    const body = AnalysisResponse.parse((await app.call(getGameAnalysis, { id }, me.token)).body);
    expect(body.plies?.map((p) => p.classification)).toEqual(before.plies.map((p) => p.ply.classification));
    const row = app.deps.store.sqlite.prepare('SELECT derivation_version AS v, view IS NOT NULL AS hasView FROM analyses').get();
    expect(row).toEqual({ v: DERIVATION_VERSION, hasView: 1 });
  });
});

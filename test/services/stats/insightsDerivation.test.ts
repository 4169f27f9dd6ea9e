import { afterEach, beforeEach, describe, expect, test } from 'vitest';
import { movesKey } from '../../../src/chess/pgn.js';
import { DERIVATION_VERSION } from '../../../src/services/review/derive.js';
import { refreshDerivations } from '../../../src/services/review/records.js';
import { STATS_CAP } from '../../../src/services/stats/chessStats.js';
import { insightBlocks } from '../../../src/services/stats/insights/index.js';
import { loadStatGames } from '../../../src/services/stats/load.js';
import { makeAnalysis } from '../../helpers/analysis.js';
import { makeTestApp, type TestApp } from '../../helpers/app.js';
import { insertReviewedGame } from '../../helpers/reviewed.js';

/** lichess's win% and move accuracy (lila WinPercent.scala, AccuracyPercent.scala), written out independently. */
const winPct = (cp: number) => 50 + 50 * (2 / (1 + Math.exp(-0.00368208 * Math.max(-1000, Math.min(1000, cp)))) - 1);
const moveAcc = (lost: number) => Math.min(100, Math.max(0, 103.1668100711649 * Math.exp(-0.04354415386753951 * lost) - 3.166924740191411 + 1));
const r1 = (x: number) => Math.round(x * 10) / 10;

const ENDING = '6k1/5ppp/8/8/8/8/5PPP/R5K1 w - - 0 40';
const knights = (a: string, b: string, c: string, d: string) => Array.from({ length: 30 }, (_, i) => [a, b, c, d][i % 4]);
const evalsWith = (at20: number, at30: number) => Array.from({ length: 31 }, (_, i) => (i === 20 ? at20 : i === 30 ? at30 : 0));

let app: TestApp;
let userId: string;

/** The blocks computed afresh (get_chess_stats keeps its answer per version of the owner's games). */
function insights() {
  const all = { providers: null, timeClasses: null, opening: null, fromIso: null, toIso: null };
  return insightBlocks(app.deps.store, userId, loadStatGames(app.deps.store, userId, all, STATS_CAP));
}

/** Turns every stored derivation back into what version 1 stored: no per-ply accuracy or evaluation. */
function downgradeToVersion1(): number {
  const rows = app.deps.store.sqlite.prepare('SELECT moves_key AS k, derivation AS d FROM analyses').all() as Array<{ k: string; d: string }>;
  for (const r of rows) {
    const d = JSON.parse(r.d) as { plies: Array<Record<string, unknown>> };
    d.plies = d.plies.map(({ accuracy: _a, evalAfterCp: _e, ...rest }) => rest);
    app.deps.store.sqlite.prepare('UPDATE analyses SET derivation = ?, derivation_version = 1 WHERE moves_key = ?').run(JSON.stringify({ ...d, version: 1 }), r.k);
  }
  return rows.length;
}

describe('insight blocks read the stored derivation', () => {
  // Owner White in B (rook ending, 1. Kf1?? with mate in 1 on the board, evals after it White +4) and D (a 30-ply
  // knight shuffle: White +0.50 after move 10, −1.20 after move 15); a third game of the owner has the moves of
  // another account's reviewed game but the owner never reviewed it: it must not count.
  beforeEach(() => {
    app = makeTestApp({ now: '2026-11-20T12:00:00Z' });
    const me = app.addUser();
    userId = me.user.id;
    const b = makeAnalysis({ startFen: ENDING, sanMoves: ['Kf1', 'h6'], evals: [0, -400, 400], lines: { 0: [{ score: { mate: 1 }, pv: 'Ra8#' }] } });
    insertReviewedGame(app.deps.store, me.user, b, { timeClass: 'rapid', timeControl: '600+5', clocks: JSON.stringify([590, 595]), playedAt: '2026-11-05T10:00:00.000Z' });
    const d = makeAnalysis({ sanMoves: knights('Nf3', 'Nf6', 'Ng1', 'Ng8'), evals: evalsWith(50, -120) });
    insertReviewedGame(app.deps.store, me.user, d, { opening: 'Zukertort Opening', playedAt: '2026-11-01T10:00:00.000Z' });
    const other = app.addUser();
    const theirs = makeAnalysis({ sanMoves: knights('Nc3', 'Nc6', 'Nb1', 'Nb8'), evals: evalsWith(-100, 700) });
    insertReviewedGame(app.deps.store, other.user, theirs, { opening: 'Van Geet Opening' });
    insertReviewedGame(app.deps.store, me.user, null, {
      opening: 'Van Geet Opening',
      movesKey: movesKey(theirs.startFen, theirs.movesUci),
      movesCount: 15,
      playedAt: '2026-11-03T10:00:00.000Z',
    });
  });
  afterEach(() => app.close());

  test('the same figures from a fresh derivation and after a version bump recomputes it (on read and at start)', async () => {
    const fresh = insights();
    // The figures themselves, by hand: B's Kf1 loses win% 97.54 → 81.35 (a blunder, endgame); D's 15 White moves lose nothing.
    expect(fresh.accuracyByPhase.reviewedGames).toBe(2);
    expect(fresh.accuracyByPhase.endgame).toEqual({ games: 1, moves: 1, averageAccuracy: r1(moveAcc(winPct(1000) - winPct(400))), errorsPer100Moves: 100 });
    expect(fresh.timeManagement.byPhase.endgame).toEqual({ moves: 1, games: 1, averageSeconds: 15 });
    expect(fresh.openingsByEval.find((o) => o.opening === 'Zukertort Opening')).toMatchObject({ afterMove10: { games: 1, averagePawns: 0.5 }, afterMove15: { games: 1, averagePawns: -1.2 } });
    // The owner's unreviewed copy of the other account's game shows no evaluation.
    expect(fresh.openingsByEval.find((o) => o.opening === 'Van Geet Opening')).toMatchObject({ games: 1, afterMove10: { games: 0, averagePawns: null } });

    // Recomputed on read from the stored engine output.
    expect(downgradeToVersion1()).toBe(3);
    expect(insights()).toEqual(fresh);
    const versions = app.deps.store.sqlite.prepare('SELECT derivation_version AS v FROM analyses ORDER BY v').all() as Array<{ v: number }>;
    // Only the owner's two reviews were read; the other account's row waits for the start-up refresh.
    expect(versions.map((r) => r.v)).toEqual([1, DERIVATION_VERSION, DERIVATION_VERSION]);

    // Recomputed at start.
    downgradeToVersion1();
    expect(await refreshDerivations(app.deps.store)).toBe(3);
    const stored = app.deps.store.sqlite.prepare('SELECT derivation AS d FROM analyses').all() as Array<{ d: string }>;
    for (const r of stored) for (const p of JSON.parse(r.d).plies) expect(p).toHaveProperty('evalAfterCp');
    expect(insights()).toEqual(fresh);
  });
});

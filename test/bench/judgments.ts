import { readFileSync } from 'node:fs';
import { gameAcpl, gameJudgments, type Judgment } from '../../src/chess/index.js';
import { buildPlies } from '../../src/chess/plyAnalysis.js';
import { exportAsStoredAnalysis, parseExport } from '../helpers/lichessExport.js';
import type { BenchTable } from './table.js';

const FIXTURE = new URL('../fixtures/sources/lichess/games_user_export.ndjson', import.meta.url);

/** Our classification restated as the lichess judgment it stands for (a miss refines a Mistake or Blunder). */
function judgedAs(classification: string, judgment: Judgment | null): Judgment | null {
  if (classification === 'inaccuracy') return 'Inaccuracy';
  if (classification === 'mistake') return 'Mistake';
  if (classification === 'blunder') return 'Blunder';
  if (classification === 'miss') return judgment;
  return null;
}

/**
 * Agreement with lichess's judgments, fed lichess's own evaluations: every analysed game of a lichess NDJSON export
 * (`CFP_LICHESS_EXPORT=path`, default the recorded export fixture). Counts, not timings: independent of load.
 */
export async function run(): Promise<BenchTable[]> {
  const path = process.env.CFP_LICHESS_EXPORT ?? FIXTURE;
  const games = parseExport(readFileSync(path, 'utf8')).filter((g) => g.analysis?.length);
  let plies = 0;
  let fnAgree = 0;
  let classifierAgree = 0;
  let sides = 0;
  let acplAgree = 0;
  const differences: string[] = [];
  for (const g of games) {
    const analysis = g.analysis!;
    const lichess = analysis.map((a) => a.judgment?.name ?? null);
    const startColour = g.initialFen?.split(' ')[1] === 'b' ? 'black' : 'white';
    const ours = gameJudgments(analysis, { startColour, isFirstChoice: (i) => analysis[i].best === undefined });
    const stored = exportAsStoredAnalysis(g);
    const classified = stored ? buildPlies(stored, { userColour: null, clocks: null, timeControl: null }) : [];
    lichess.forEach((j, i) => {
      plies += 1;
      if (ours[i] === j) fnAgree += 1;
      const c = classified[i];
      const mine = c ? judgedAs(c.ply.classification, c.judgment) : undefined;
      if (mine === j) classifierAgree += 1;
      else if (differences.length < 10) differences.push(`${g.id} ply ${i + 1}: lichess ${j ?? 'none'}, ours ${c?.ply.classification ?? 'not replayed'}`);
    });
    const acpl = gameAcpl(analysis, { startColour });
    for (const side of ['white', 'black'] as const) {
      const published = g.players[side].analysis?.acpl;
      if (published === undefined) continue;
      sides += 1;
      if (acpl[side] === published) acplAgree += 1;
    }
  }
  return [
    {
      title: "Agreement with lichess's judgments (fed lichess's evaluations)",
      columns: ['measure', 'agree', 'of', '%'],
      rows: [
        ['gameJudgments, ply by ply', fnAgree, plies, plies ? (100 * fnAgree) / plies : NaN],
        ['review classifier (buildPlies), ply by ply', classifierAgree, plies, plies ? (100 * classifierAgree) / plies : NaN],
        ['gameAcpl vs published acpl, per side', acplAgree, sides, sides ? (100 * acplAgree) / sides : NaN],
      ],
      notes: [
        `${games.length} analysed game(s) from ${String(path).replace(/^file:\/\//, '')} (set CFP_LICHESS_EXPORT to a larger export for a wider measure)`,
        ...(differences.length ? differences : ['no differences']),
      ],
    },
  ];
}

import { readFileSync } from 'node:fs';
import { gameAcpl } from '../../src/chess/judgments.js';
import { analysisAccuracy, analysisEvals } from '../../src/chess/reviewAccuracy.js';
import { deriveAll } from '../../src/services/review/derive.js';
import { parseLichessGame } from '../../src/sources/lichess/parse.js';
import type { SourceRecord } from '../../src/sources/types.js';
import type { BenchTable } from './table.js';

const FIXTURE = new URL('../fixtures/sources/lichess-analysed/games.ndjson', import.meta.url);

/**
 * `npm run bench -- lichess-import`: lichess's own review imported from the export (src/sources/lichess/review.ts),
 * against the figures lichess published for the same games: each ply's judgment, each side's ACPL and accuracy.
 * The import path (parse, build the review, derive it) holds no engine: its CPU time is all there is.
 * `CFP_LICHESS_EXPORT=path owner` measures another export (default: the 40 shared games, owner megaloblasto).
 */
export async function run(): Promise<BenchTable[]> {
  const path = process.env.CFP_LICHESS_EXPORT ?? FIXTURE;
  const owner = process.env.CFP_LICHESS_OWNER ?? 'megaloblasto';
  const lines = readFileSync(path, 'utf8').split('\n').filter((l) => l.trim()).map((l) => JSON.parse(l));
  let games = 0, plies = 0, judged = 0, judgmentAgree = 0, sides = 0, acplAgree = 0, accAgree = 0, skipped = 0;
  const differences: string[] = [];
  const cpu0 = process.cpuUsage();
  for (const g of lines) {
    if (!g.analysis?.length) continue;
    const rec = parseLichessGame(g, owner) as SourceRecord;
    if (!('game' in rec) || !rec.review) {
      skipped += 1;
      continue;
    }
    games += 1;
    const { view } = deriveAll(rec.review);
    view.plies.forEach((p, i) => {
      const lichess = g.analysis[i]?.judgment?.name.toLowerCase() ?? null;
      plies += 1;
      if (lichess) judged += 1;
      if (p.ply.judgment === lichess) judgmentAgree += 1;
      else if (differences.length < 10) differences.push(`${g.id} ply ${i + 1}: lichess ${lichess ?? 'none'}, imported ${p.ply.judgment ?? 'none'}`);
    });
    const acpl = gameAcpl(analysisEvals(rec.review));
    const acc = analysisAccuracy(rec.review);
    for (const side of ['white', 'black'] as const) {
      const published = g.players[side].analysis;
      if (!published) continue;
      sides += 1;
      if (acpl[side] === published.acpl) acplAgree += 1;
      else if (differences.length < 10) differences.push(`${g.id} ${side}: acpl lichess ${published.acpl}, imported ${acpl[side]}`);
      if (Math.round(acc[side]) === published.accuracy) accAgree += 1;
      else if (differences.length < 10) differences.push(`${g.id} ${side}: accuracy lichess ${published.accuracy}, imported ${acc[side].toFixed(1)}`);
    }
  }
  const cpu = process.cpuUsage(cpu0);
  const pct = (a: number, b: number) => (b ? (100 * a) / b : NaN);
  return [
    {
      title: "lichess's own review imported from the export, against lichess's published figures",
      columns: ['measure', 'agree', 'of', '%'],
      rows: [
        ['judgment, ply by ply (inaccuracy / mistake / blunder / none)', judgmentAgree, plies, pct(judgmentAgree, plies)],
        ['ACPL per side (lichess players.*.analysis.acpl)', acplAgree, sides, pct(acplAgree, sides)],
        ['accuracy per side, rounded as lichess publishes it', accAgree, sides, pct(accAgree, sides)],
      ],
      notes: [
        `${games} game(s) with analysis from ${String(path).replace(/^file:\/\//, '')}, ${plies} plies (${judged} judged by lichess); ${skipped} whose analysis did not cover the moves`,
        `engine seconds: 0 (no engine on the import path); CPU for parsing, building and deriving every review: ${((cpu.user + cpu.system) / 1e6).toFixed(1)} s`,
        ...(differences.length ? differences : ['no differences']),
      ],
    },
  ];
}

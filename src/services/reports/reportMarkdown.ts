import type { WeeklyReport } from '../../../schemas/aggregates.js';
import { describeGame, puzzlesLine, ratingLineText, resultsLine } from './reportText.js';

/**
 * The frozen weekly report as Markdown (the chess-footprint://reports/latest resource): every
 * figure of the stored payload, in the same words as the email, so the three renderings agree.
 * Labels and opponents are data from the sources: the characters that would start emphasis, code,
 * links or HTML inline are escaped (lines always start with our own text, so block syntax cannot).
 */
const md = (s: string) => s.replace(/([\\`*_[\]<>|])/g, '\\$1');

export function reportMarkdown(r: WeeklyReport): string {
  const lines = [`# Chess week ${r.weekStart} to ${r.weekEnd}`, '', `Saturday ${r.weekStart} 00:00 to Friday ${r.weekEnd} 24:00 UTC; generated ${r.generatedAt}.`, ''];
  for (const s of [r.sections.siteA, r.sections.siteB, r.sections.fed]) {
    lines.push(`## ${md(s.label)}`, '', `- Results: ${md(resultsLine(s))}`);
    for (const l of s.ratingLines) lines.push(`- Rating ${md(ratingLineText(l))}`);
    if (s.bestWin) lines.push(`- Best win: ${md(describeGame(s.bestWin))} (game \`${s.bestWin.gameId}\`)`);
    if (s.toughestDefeat) lines.push(`- Toughest defeat: ${md(describeGame(s.toughestDefeat))} (game \`${s.toughestDefeat.gameId}\`)`);
    lines.push('');
  }
  lines.push('## Puzzles', '', md(puzzlesLine(r.puzzles)), '', `[The report as a page](${r.shareUrl})`, '');
  return lines.join('\n');
}

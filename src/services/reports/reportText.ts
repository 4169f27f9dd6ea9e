import type { ReportSection, WeeklyReport } from '../../../schemas/aggregates.js';

type Ref = NonNullable<ReportSection['bestWin']>;

const signed = (n: number) => (n > 0 ? `+${n}` : String(n));

export function describeGame(g: Ref): string {
  return `${g.opponent} (${g.opponentRating}) with ${g.colour}, ${g.playedAt.slice(0, 10)}, ${g.timeClass}${g.opening ? `, ${g.opening}` : ''}`;
}

export function resultsLine(s: ReportSection): string {
  if (!s.games) return 'no games';
  const r = s.results;
  return `${s.games} game${s.games === 1 ? '' : 's'}: ${r.win} won, ${r.draw} drawn, ${r.loss} lost (score ${r.score}%)`;
}

export function ratingLineText(l: ReportSection['ratingLines'][number]): string {
  return `${l.timeClass} ${l.start} → ${l.end} (${signed(l.delta)})`;
}

export function puzzlesLine(p: WeeklyReport['puzzles']): string {
  const base = p.attempts ? `${p.attempts} attempted, ${p.solved} solved (${p.winRate}%)` : 'none attempted';
  return p.siteBRating ? `${base}; lichess puzzle rating ${p.siteBRating.start} → ${p.siteBRating.end} (${signed(p.siteBRating.delta)})` : base;
}

export function reportSubject(r: WeeklyReport): string {
  return `Your chess week ${r.weekStart} to ${r.weekEnd}`;
}

/** The email body: every figure of the frozen payload, as plain text. */
export function reportText(r: WeeklyReport, displayName: string): string {
  const lines = [`Hello ${displayName},`, '', `Your chess week from Saturday ${r.weekStart} to Friday ${r.weekEnd} (UTC).`, ''];
  for (const s of [r.sections.siteA, r.sections.siteB, r.sections.fed]) {
    lines.push(`${s.label}: ${resultsLine(s)}`);
    for (const l of s.ratingLines) lines.push(`  Rating ${ratingLineText(l)}`);
    if (s.bestWin) lines.push(`  Best win: ${describeGame(s.bestWin)}`);
    if (s.toughestDefeat) lines.push(`  Toughest defeat: ${describeGame(s.toughestDefeat)}`);
    lines.push('');
  }
  lines.push(`Puzzles: ${puzzlesLine(r.puzzles)}`, '', `The report as a page: ${r.shareUrl}`, '', `Generated ${r.generatedAt} by chess-footprint.`);
  return lines.join('\n');
}

import type { ReportSection, WeeklyReport } from '../../../schemas/aggregates.js';
import type { Store } from '../../store/db.js';
import { describeGame, puzzlesLine, ratingLineText, resultsLine } from './reportText.js';
import { payloadOf, reportByShareToken } from './reports.js';
import { addDays } from '../common/index.js';

const esc = (s: string) => s.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!);

const COLOURS = ['#2563eb', '#dc2626', '#16a34a', '#9333ea', '#ea580c', '#0891b2', '#4b5563', '#ca8a04'];
const W = 640;
const H = 240;
const PAD = { left: 48, right: 16, top: 16, bottom: 28 };

/** Every rating line of the week on one chart: x is the day of the week, y the rating. */
export function ratingChartSvg(r: WeeklyReport): string {
  const lines = (['siteA', 'siteB', 'fed'] as const).flatMap((p) => r.sections[p].ratingLines.map((l) => ({ label: `${r.sections[p].label} ${l.timeClass}`, line: l })));
  if (!lines.length) return '<p class="muted">No rating readings this week.</p>';
  // Each line starts at its seeded value on the morning of the Saturday, then its daily readings.
  const series = lines.map(({ label, line }) => ({
    label,
    pts: [{ day: -0.5, rating: line.start }, ...line.points.map((p) => ({ day: (Date.parse(p.date) - Date.parse(r.weekStart)) / 86_400_000, rating: p.rating }))],
  }));
  const all = series.flatMap((s) => s.pts.map((p) => p.rating));
  let lo = Math.min(...all);
  let hi = Math.max(...all);
  if (hi - lo < 20) {
    lo -= 10;
    hi += 10;
  }
  const x = (day: number) => PAD.left + ((day + 0.5) / 7) * (W - PAD.left - PAD.right);
  const y = (rating: number) => PAD.top + ((hi - rating) / (hi - lo)) * (H - PAD.top - PAD.bottom);
  const parts: string[] = [];
  for (let d = 0; d < 7; d += 1) {
    parts.push(`<text x="${x(d).toFixed(1)}" y="${H - 8}" font-size="11" text-anchor="middle" fill="#555">${esc(addDays(r.weekStart, d).slice(5))}</text>`);
  }
  for (const v of [lo, (lo + hi) / 2, hi]) {
    parts.push(`<line x1="${PAD.left}" x2="${W - PAD.right}" y1="${y(v).toFixed(1)}" y2="${y(v).toFixed(1)}" stroke="#e5e7eb"/>`);
    parts.push(`<text x="${PAD.left - 6}" y="${(y(v) + 4).toFixed(1)}" font-size="11" text-anchor="end" fill="#555">${Math.round(v)}</text>`);
  }
  series.forEach((s, i) => {
    const c = COLOURS[i % COLOURS.length];
    const path = s.pts.map((p) => `${x(p.day).toFixed(1)},${y(p.rating).toFixed(1)}`).join(' ');
    parts.push(`<polyline fill="none" stroke="${c}" stroke-width="2" points="${path}"><title>${esc(s.label)}</title></polyline>`);
    for (const p of s.pts.slice(1)) parts.push(`<circle cx="${x(p.day).toFixed(1)}" cy="${y(p.rating).toFixed(1)}" r="3" fill="${c}"/>`);
  });
  const legend = series.map((s, i) => `<span><i style="background:${COLOURS[i % COLOURS.length]}"></i>${esc(s.label)}</span>`).join(' ');
  return `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 ${W} ${H}" width="100%" role="img" aria-label="Rating over the week">${parts.join('')}</svg><p class="legend">${legend}</p>`;
}

function sectionHtml(s: ReportSection): string {
  const rows = [
    s.ratingLines.length ? `<li>Rating: ${s.ratingLines.map((l) => esc(ratingLineText(l))).join('; ')}</li>` : '',
    s.bestWin ? `<li>Best win: ${esc(describeGame(s.bestWin))}</li>` : '',
    s.toughestDefeat ? `<li>Toughest defeat: ${esc(describeGame(s.toughestDefeat))}</li>` : '',
  ].join('');
  return `<section><h2>${esc(s.label)}</h2><p>${esc(resultsLine(s))}</p>${rows ? `<ul>${rows}</ul>` : ''}</section>`;
}

export function reportHtml(r: WeeklyReport): string {
  const title = `Chess week ${r.weekStart} to ${r.weekEnd}`;
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="robots" content="noindex"><title>${esc(title)}</title>
<style>body{font:16px/1.5 system-ui,sans-serif;max-width:720px;margin:2rem auto;padding:0 1rem;color:#111}h1{font-size:1.5rem}h2{font-size:1.15rem;margin-bottom:.25rem}
.muted{color:#666}.legend span{margin-right:1rem;font-size:.9rem}.legend i{display:inline-block;width:.8rem;height:.8rem;margin-right:.3rem;border-radius:2px;vertical-align:middle}</style>
</head><body>
<h1>${esc(title)}</h1>
<p class="muted">Saturday ${esc(r.weekStart)} to Friday ${esc(r.weekEnd)} (UTC). Frozen ${esc(r.generatedAt)}.</p>
<h2>Rating</h2>
${ratingChartSvg(r)}
${sectionHtml(r.sections.siteA)}
${sectionHtml(r.sections.siteB)}
${sectionHtml(r.sections.fed)}
<section><h2>Puzzles</h2><p>${esc(puzzlesLine(r.puzzles))}</p></section>
<p class="muted">chess-footprint weekly report</p>
</body></html>`;
}

/** The public page of a report, or null for an unknown token (the route answers 404). */
export function renderReportPage(store: Store, shareToken: string): string | null {
  if (!/^[A-Za-z0-9_-]{43}$/.test(shareToken)) return null;
  const row = reportByShareToken(store, shareToken);
  // The page itself shows no link; the base only completes the payload's shape.
  return row ? reportHtml(payloadOf(store, row, '')) : null;
}

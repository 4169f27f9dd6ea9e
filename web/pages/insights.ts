import { api } from '../api.js';
import { s } from '../dom.js';
import { append } from '../dom.js';
import { dataView, h, link, table } from '../dom.js';

/**
 * Horizontal bars of a score (0–100) per label, drawn at the width they get on screen (CSS pixels) so
 * the text keeps its size: label, bar and note on one line, or on a narrow screen the note beside
 * the label and the bar under them.
 */
function bars(rows: Array<{ label: string; value: number; note: string; expected?: number | null }>, title: string, width: number): SVGElement {
  const W = Math.round(Math.max(300, Math.min(820, width)));
  const narrow = W < 560;
  const rowH = narrow ? 36 : 22;
  const [x0, barW] = narrow ? [0, W - 4] : [150, Math.min(300, W - 150 - 230)];
  const svg = s('svg', { viewBox: `0 0 ${W} ${rows.length * rowH + 4}`, class: 'bars', role: 'img', 'aria-label': title });
  rows.forEach((r, i) => {
    const y = i * rowH + 2;
    const barY = narrow ? y + 17 : y;
    svg.append(s('text', { x: 0, y: y + 13, class: 'axis' }, r.label));
    svg.append(s('rect', { x: x0, y: barY, width: barW, height: 14, class: 'bar-bg' }));
    svg.append(s('rect', { x: x0, y: barY, width: (barW * Math.max(0, Math.min(100, r.value))) / 100, height: 14, class: 'bar' }));
    if (typeof r.expected === 'number') {
      const x = x0 + (barW * r.expected) / 100;
      svg.append(s('line', { x1: x, x2: x, y1: barY - 2, y2: barY + 16, class: 'expected' }, s('title', {}, `expected ${r.expected}%`)));
    }
    svg.append(s('text', narrow ? { x: W - 2, y: y + 13, class: 'axis', 'text-anchor': 'end' } : { x: x0 + barW + 8, y: y + 13, class: 'axis' }, r.note));
  });
  return svg;
}

export async function insightsPage(main: HTMLElement, _p: Record<string, string>, query: URLSearchParams): Promise<void> {
  const range = query.get('range') ?? 'all';
  const [stats, weakness] = await Promise.all([api('/api/v1/me/stats', { query: { range } }), api('/api/v1/me/weakness-profile', { query: { range } })]);
  const t = stats.totals;
  const width = main.clientWidth - 40;
  append(main, [
    h('h1', {}, 'Insights'),
    h('p', {}, 'Range: ', ...['30d', '90d', '1y', 'all'].flatMap((r) => [r === range ? h('strong', {}, r) : link(`/insights?range=${r}`, r), ' '])),
    h('section', {}, h('h2', {}, 'Results'), table(['', 'Games', 'W–D–L', 'Score'], ['white', 'black', 'overall'].map((k) => [k, t[k].total, `${t[k].win}–${t[k].draw}–${t[k].loss}`, `${t[k].score}%`]))),
    h('p', {}, `Performance ${stats.performance?.rating ?? '—'} against an average of ${stats.performance?.averageOpponentRating ?? '—'}; accuracy ${stats.accuracy?.average ?? '—'} over ${stats.accuracy?.games ?? 0} game(s).`),
    stats.weekdays?.length ? h('section', {}, h('h2', {}, 'Score by weekday'), bars(stats.weekdays.map((w: any) => ({ label: w.weekday, value: w.score, note: `${w.score}% of ${w.games}` })), 'score by weekday', width)) : null,
    stats.opponentStrength?.length
      ? h('section', {}, h('h2', {}, 'Score by opponent strength'), h('p', { class: 'muted' }, 'The tick marks the score the rating difference predicts.'), bars(stats.opponentStrength.map((b: any) => ({ label: b.bucket.replace(/ \(.*\)$/, ''), value: b.score, note: `${b.score}% of ${b.games} (expected ${b.expectedScore ?? '—'}%)`, expected: b.expectedScore })), 'score by opponent strength', width))
      : null,
    h('section', {}, h('h2', {}, 'Weakness profile'), h('p', { class: 'muted' }, `${weakness.reviewedGames} reviewed game(s), ${weakness.moves} moves, error rate ${weakness.overallErrorRate}`), weakness.ranked.length ? dataView(weakness.ranked) : h('p', {}, 'Not enough reviewed games to rank weaknesses yet.'), h('details', {}, h('summary', {}, 'Small samples'), dataView(weakness.lowSample))),
    h('details', {}, h('summary', {}, 'Every statistics block'), dataView(stats)),
  ]);
}

import { api } from '../api.js';
import { s } from '../dom.js';
import { append } from '../dom.js';
import { dataView, h, link, table } from '../dom.js';

/** Horizontal bars of a score (0–100) per label. */
function bars(rows: Array<{ label: string; value: number; note: string; expected?: number | null }>, title: string): SVGElement {
  const W = 680;
  const rowH = 22;
  const svg = s('svg', { viewBox: `0 0 ${W} ${rows.length * rowH + 4}`, class: 'bars', role: 'img', 'aria-label': title });
  rows.forEach((r, i) => {
    const y = i * rowH + 2;
    svg.append(s('text', { x: 0, y: y + 15, class: 'axis' }, r.label));
    svg.append(s('rect', { x: 180, y, width: 260, height: rowH - 6, class: 'bar-bg' }));
    svg.append(s('rect', { x: 180, y, width: (260 * Math.max(0, Math.min(100, r.value))) / 100, height: rowH - 6, class: 'bar' }));
    if (typeof r.expected === 'number') svg.append(s('line', { x1: 180 + 2.6 * r.expected, x2: 180 + 2.6 * r.expected, y1: y - 1, y2: y + rowH - 5, class: 'expected' }, s('title', {}, `expected ${r.expected}%`)));
    svg.append(s('text', { x: 446, y: y + 15, class: 'axis' }, r.note));
  });
  return svg;
}

export async function insightsPage(main: HTMLElement, _p: Record<string, string>, query: URLSearchParams): Promise<void> {
  const range = query.get('range') ?? 'all';
  const [stats, weakness] = await Promise.all([api('/api/v1/me/stats', { query: { range } }), api('/api/v1/me/weakness-profile', { query: { range } })]);
  const t = stats.totals;
  append(main, [
    h('h1', {}, 'Insights'),
    h('p', {}, 'Range: ', ...['30d', '90d', '1y', 'all'].flatMap((r) => [r === range ? h('strong', {}, r) : link(`/insights?range=${r}`, r), ' '])),
    h('section', {}, h('h2', {}, 'Results'), table(['', 'Games', 'W–D–L', 'Score'], ['white', 'black', 'overall'].map((k) => [k, t[k].total, `${t[k].win}–${t[k].draw}–${t[k].loss}`, `${t[k].score}%`]))),
    h('p', {}, `Performance ${stats.performance?.rating ?? '—'} against an average of ${stats.performance?.averageOpponentRating ?? '—'}; accuracy ${stats.accuracy?.average ?? '—'} over ${stats.accuracy?.games ?? 0} game(s).`),
    stats.weekdays?.length ? h('section', {}, h('h2', {}, 'Score by weekday'), bars(stats.weekdays.map((w: any) => ({ label: w.weekday, value: w.score, note: `${w.score}% of ${w.games}` })), 'score by weekday')) : null,
    stats.opponentStrength?.length
      ? h('section', {}, h('h2', {}, 'Score by opponent strength'), h('p', { class: 'muted' }, 'The tick marks the score the rating difference predicts.'), bars(stats.opponentStrength.map((b: any) => ({ label: b.bucket.replace(/ \(.*\)$/, ''), value: b.score, note: `${b.score}% of ${b.games} (expected ${b.expectedScore ?? '—'}%)`, expected: b.expectedScore })), 'score by opponent strength'))
      : null,
    h('section', {}, h('h2', {}, 'Weakness profile'), h('p', { class: 'muted' }, `${weakness.reviewedGames} reviewed game(s), ${weakness.moves} moves, error rate ${weakness.overallErrorRate}`), weakness.ranked.length ? dataView(weakness.ranked) : h('p', {}, 'Not enough reviewed games to rank weaknesses yet.'), h('details', {}, h('summary', {}, 'Small samples'), dataView(weakness.lowSample))),
    h('details', {}, h('summary', {}, 'Every statistics block'), dataView(stats)),
  ]);
}

import { api } from '../api.js';
import { append, h, link, s, table } from '../dom.js';
import { count, num, pct, rating, timeClassName, wdl, WDL_HEADER, words } from '../format.js';

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

interface Bucket {
  bucket: string;
  dimension: string;
  value: string;
  games: number;
  moves: number;
  errors: number;
  errorRate: number;
  excessErrors: number;
}

const PHASE_WORDS: Record<string, string> = { opening: 'in the opening', middlegame: 'in the middlegame', endgame: 'in the endgame' };
const CONCEPT_WORDS: Record<string, string> = {
  hanging_piece: 'when a piece is left hanging',
  missed_capture: 'when a capture is there to be made',
  missed_mate: 'when a mate is on the board',
  allowed_mate: 'when a mate is threatened against you',
  fork: 'in positions with a fork',
  pin: 'in positions with a pin',
  back_rank: 'with back-rank threats about',
  forcing_move_missed: 'when a forcing move was there',
  opening_principle: 'against opening principles',
  time_trouble: 'in time trouble',
};

/** Where the moves of a bucket were played, in words ("as Black", "in the middlegame"). */
function where(b: Bucket): string {
  switch (b.dimension) {
    case 'colour':
      return b.value === 'white' ? 'as White' : 'as Black';
    case 'phase':
      return PHASE_WORDS[b.value] ?? `in the ${words(b.value)}`;
    case 'timeClass':
      return `in ${timeClassName(b.value)} games`;
    case 'concept':
      return CONCEPT_WORDS[b.value] ?? `with ${words(b.value)}`;
    case 'clock':
      return b.value === 'low' ? 'when your clock runs low' : b.value === 'ok' ? 'with time on your clock' : 'where the clock is not known';
    case 'opening':
      return b.value === 'unknown' ? 'in games whose opening is not named' : `in the ${b.value}`;
    default:
      return `(${words(b.dimension)}: ${b.value})`;
  }
}

/** The games behind a finding: the reviewed games the list can narrow to it. */
function gamesLink(b: Bucket): string {
  const q = new URLSearchParams({ reviewed: 'yes' });
  if (b.dimension === 'colour') q.set('colour', b.value);
  if (b.dimension === 'timeClass') q.set('timeClass', b.value);
  if (b.dimension === 'opening' && b.value !== 'unknown') q.set('opening', b.value);
  return `/games?${q}`;
}

/** A finding's bar: its error rate against the largest shown, the tick at the player's average. */
function findingBar(rate: number, overall: number, max: number): SVGElement {
  const W = 200;
  const x = (r: number) => Math.max(0, Math.min(W, (r / max) * W));
  return s(
    'svg',
    { viewBox: `0 0 ${W} 12`, class: 'finding-bar', role: 'img', 'aria-label': `${num(rate * 100)} errors per 100 moves; your average ${num(overall * 100)}` },
    s('rect', { x: 0, y: 1, width: W, height: 10, class: 'bar-bg' }),
    s('rect', { x: 0, y: 1, width: x(rate), height: 10, class: 'bar' }),
    s('line', { x1: x(overall), x2: x(overall), y1: 0, y2: 12, class: 'expected' }),
  );
}

/** The server's rule for a finding (src/services/stats/weakness.ts), in words. */
const RULE = 'at least 2 errors more than your average predicts, more than chance gives 1 time in 20';

/** The weakness profile as ranked findings in sentences, each with its bar and its games. */
function findings(w: { reviewedGames: number; moves: number; errors: number; overallErrorRate: number; ranked: Array<Bucket & { rank: number }> }): HTMLElement {
  const per100 = (r: number) => num(r * 100);
  const intro = h(
    'p',
    { class: 'muted' },
    w.moves
      ? `Over ${count(w.reviewedGames, 'reviewed game')} (${w.moves} of your moves) you made ${count(w.errors, 'error')}: ${per100(w.overallErrorRate)} per 100 moves. An error is a mistake, a missed win or a blunder.`
      : 'No reviewed games in this range yet: request reviews from a game’s page (or run `chess-footprint review`) and your weak spots appear here.',
  );
  if (!w.ranked.length) return h('div', {}, intro, w.moves ? h('p', { 'data-testid': 'no-findings' }, `Nothing stands out yet: no group of five or more reviewed games has clearly more errors than your average (${RULE}). Review more games and look again.`) : null);
  const shown = w.ranked.slice(0, 8);
  const max = Math.max(...shown.map((b) => b.errorRate), w.overallErrorRate) * 1.1;
  return h(
    'div',
    {},
    intro,
    h(
      'ol',
      { class: 'findings', 'data-testid': 'findings' },
      ...shown.map((b) =>
        h(
          'li',
          { 'data-testid': 'finding' },
          h('p', {}, h('strong', {}, `You make ${per100(b.errorRate - w.overallErrorRate)} more errors per 100 moves ${where(b)} than your average`), ` (${per100(b.errorRate)} against ${per100(w.overallErrorRate)}; ${count(b.errors, 'error')} in ${b.moves} moves of ${count(b.games, 'game')}).`),
          h('div', { class: 'finding-foot' }, findingBar(b.errorRate, w.overallErrorRate, max), link(gamesLink(b), 'See the games →')),
        ),
      ),
    ),
    h('p', { class: 'muted' }, `Ranked by errors beyond what your average predicts for that many moves; the tick on each bar marks your average. A group is shown only with five or more reviewed games and ${RULE}.`),
  );
}

export async function insightsPage(main: HTMLElement, _p: Record<string, string>, query: URLSearchParams): Promise<void> {
  const range = query.get('range') ?? 'all';
  const [stats, weakness] = await Promise.all([api('/api/v1/me/stats', { query: { range } }), api('/api/v1/me/weakness-profile', { query: { range } })]);
  const t = stats.totals;
  const width = main.clientWidth - 40;
  const RANGE_NAMES: Record<string, string> = { '30d': 'last 30 days', '90d': 'last 90 days', '1y': 'last year', all: 'all games' };
  const side: Record<string, string> = { white: 'As White', black: 'As Black', overall: 'Overall' };
  append(main, [
    h('h1', {}, 'Insights'),
    h('p', { class: 'ranges' }, ...['30d', '90d', '1y', 'all'].flatMap((r) => [r === range ? h('strong', {}, RANGE_NAMES[r]) : link(`/insights?range=${r}`, RANGE_NAMES[r]), ' '])),
    h('section', {}, h('h2', {}, 'Results'), table(['', 'Games', WDL_HEADER, 'Score'], ['white', 'black', 'overall'].map((k) => [side[k], t[k].total, wdl(t[k]), pct(t[k].score)]))),
    h(
      'p',
      {},
      stats.performance?.rating
        ? `Performance rating ${rating(stats.performance.rating)} against opponents averaging ${rating(stats.performance.averageOpponentRating)}. `
        : 'No rated games in this range for a performance rating. ',
      stats.accuracy?.games ? `Average accuracy ${num(stats.accuracy.average)} over ${count(stats.accuracy.games, 'game')} with an accuracy figure.` : 'No game has an accuracy figure yet: review games to see yours.',
    ),
    stats.weekdays?.length ? h('section', {}, h('h2', {}, 'Score by weekday'), bars(stats.weekdays.map((w: any) => ({ label: w.weekday, value: w.score, note: `${pct(w.score)} of ${count(w.games, 'game')}` })), 'score by weekday', width)) : null,
    stats.opponentStrength?.length
      ? h('section', {}, h('h2', {}, 'Score by opponent strength'), h('p', { class: 'muted' }, 'The tick marks the score the rating difference predicts.'), bars(stats.opponentStrength.map((b: any) => ({ label: b.bucket.replace(/ \(.*\)$/, ''), value: b.score, note: `${pct(b.score)} of ${b.games} (expected ${pct(b.expectedScore)})`, expected: b.expectedScore })), 'score by opponent strength', width))
      : null,
    h('section', { 'data-testid': 'weakness' }, h('h2', {}, 'Where your errors come from'), findings(weakness)),
  ]);
}

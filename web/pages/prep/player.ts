import { api } from '../../api.js';
import { legend, lineChart, type Series } from '../../charts.js';
import { clear, h, moveLine, table } from '../../dom.js';
import { colourName, count, day, pct, signed, timeClassName, wdl, WDL_HEADER } from '../../format.js';
import { playerPath, scoutTree } from './tree.js';

// A scouted player's page: results, recent form, rating trend, where they score worst, where the
// owner's games meet theirs, and their opening tree on a board. Every value from the source
// (usernames, moves) goes in as text through h().

const POLL_MS = 1000;
export const siteName = (p: string) => (p === 'siteB' ? 'lichess' : 'chess.com');

export interface Scout {
  provider: string;
  username: string;
  state: string;
  message: string | null;
  fetchedAt: string | null;
  games: number;
  progress: { phase: string; fetched: number; done: number | null; total: number | null } | null;
}

/** One line on the scouted players' list. */
export function scoutSummary(s: Scout): string {
  if (s.state === 'queued') return 'waiting to fetch…';
  if (s.state === 'fetching') return `fetching: ${count(s.progress?.fetched ?? 0, 'game')} read…`;
  if (s.state === 'error') return 'the last scout failed';
  if (s.state === 'demo') return `${count(s.games, 'game')} · made up for the demo`;
  if (s.state === 'never-fetched') return 'not fetched yet';
  return `${count(s.games, 'game')} · fetched ${day(s.fetchedAt)}`;
}

const RESULT_MARK: Record<string, string> = { W: 'win', D: 'draw', L: 'loss' };

function form(recent: { results: string; games: number; win: number; draw: number; loss: number }): HTMLElement {
  const marks = [...recent.results].filter((c) => RESULT_MARK[c]);
  return h(
    'div',
    { 'data-testid': 'recent-form' },
    marks.length ? h('p', { class: 'form-marks', 'aria-label': 'their last games, newest first' }, ...marks.map((c) => h('span', { class: `mark-result ${RESULT_MARK[c]}`, title: RESULT_MARK[c] }, c))) : h('p', { class: 'muted' }, 'No games yet.'),
    marks.length ? h('p', { class: 'muted' }, `Their last ${count(recent.games, 'game')}, newest first: ${wdl(recent)} (won, drawn, lost).`) : null,
  );
}

/**
 * A time class's line over the same points its sentence gives (issue 45 item 9: the card said 1745 → 1753 while the line
 * started at the first month's end): the first rated game's rating at its date, the rating after the last game of each
 * month at the month's end, and the last game's rating at its date.
 */
function trendPoints(t: { first: { date: string; rating: number }; last: { date: string; rating: number }; monthly: Array<{ month: string; rating: number }> }): Array<{ x: number; y: number }> {
  const first = { x: Date.parse(t.first.date), y: t.first.rating };
  const last = { x: Date.parse(t.last.date), y: t.last.rating };
  const monthEnds = t.monthly.slice(0, -1).map((m) => ({ x: Date.UTC(Number(m.month.slice(0, 4)), Number(m.month.slice(5, 7)), 0, 23, 59), y: m.rating }));
  return [first, ...monthEnds.filter((p) => p.x > first.x && p.x < last.x), ...(last.x > first.x ? [last] : [])];
}

function ratingChart(trend: any[], width: number): HTMLElement {
  if (!trend.length) return h('p', { class: 'muted' }, 'No rated games with a rating in what was fetched.');
  const series: Series[] = trend.map((t) => ({
    name: timeClassName(t.timeClass),
    points: trendPoints(t),
  }));
  return h(
    'div',
    { class: 'chart-wrap' },
    lineChart(series, { testid: 'scout-rating-chart', label: 'their rating by month', width, height: 200 }),
    legend(series),
    h('ul', { class: 'plain' }, ...trend.map((t) => h('li', {}, `${timeClassName(t.timeClass)}: ${t.first.rating} → ${t.last.rating} (${signed(t.change)}) over ${count(t.games, 'rated game')}`))),
  );
}

function results(report: any): HTMLElement {
  const rows: Array<[string, any]> = [
    ['As White', report.byColour.white],
    ['As Black', report.byColour.black],
    ...report.timeClasses.map((t: any) => [`In ${timeClassName(t.timeClass)}`, t] as [string, any]),
  ];
  return table(['', 'Games', WDL_HEADER, 'Their score'], rows.map(([label, r]) => [label, r.games, wdl(r), pct(r.score)]), undefined, false);
}

/** A line to open in the tree: the moves as pairs, with what is known there. */
function lineButton(moves: string, onOpen: () => void, note: string): HTMLElement {
  return h('li', {}, h('button', { type: 'button', class: 'link line-link', 'data-testid': 'open-line', onclick: onOpen }, moveLine(moves)), h('span', { class: 'muted' }, ` ${note}`));
}

export async function showPlayer(out: HTMLElement, provider: string, username: string, isCurrent: () => boolean): Promise<void> {
  clear(out);
  out.append(h('p', { class: 'muted' }, 'Loading…'));
  try {
    let report = await api(playerPath(provider, username));
    while (report.scout.state === 'queued' || report.scout.state === 'fetching') {
      if (!isCurrent()) return;
      const p = report.scout.progress;
      const bar = h('progress', { max: p?.total ?? 1 });
      if (p?.total) bar.value = p.done ?? 0;
      else bar.removeAttribute('value');
      clear(out);
      out.append(
        h(
          'div',
          { class: 'card', 'data-testid': 'scout-progress' },
          h('h2', {}, `Scouting ${report.scout.username} on ${siteName(report.scout.provider)}`),
          bar,
          h('p', { class: 'muted' }, report.scout.state === 'queued' ? 'Waiting for the site (one request at a time)…' : `${count(p?.fetched ?? 0, 'game')} read so far${p?.phase ? ` (${p.phase.replace(/^archive /, 'month ')})` : ''}…`),
        ),
      );
      await new Promise((r) => setTimeout(r, POLL_MS));
      if (!isCurrent()) return;
      report = await api(playerPath(provider, username));
    }
    if (!isCurrent()) return;
    clear(out);
    const s = report.scout;
    if (s.state === 'error') {
      out.append(h('p', { class: 'error', role: 'alert', 'data-testid': 'scout-error' }, `Could not scout ${s.username} on ${siteName(s.provider)}: ${s.message ?? 'the fetch failed'}. Check the name and try again.`));
      return;
    }
    const width = Math.max(280, Math.min(out.clientWidth - 40, 520));
    const tree = scoutTree(s.provider, s.username);
    const open = (colour: 'white' | 'black', moves: string) => () => {
      void tree.show(colour, moves);
      tree.el.scrollIntoView({ behavior: 'smooth', block: 'start' });
    };
    const worst = (['white', 'black'] as const).flatMap((c) => report.worstLines[c].slice(0, 3).map((l: any) => lineButton(l.lineMoves, open(c, l.lineMoves), `as ${colourName(c)}: they score ${pct(l.score)} in ${count(l.games, 'game')}`)));
    const meet = (['white', 'black'] as const).flatMap((c) =>
      report.meetingPoints[c].slice(0, 4).map((m: any) => lineButton(m.lineMoves, open(c, m.lineMoves), `they have ${colourName(c)}: your ${count(m.owner.games, 'game')} score ${pct(m.owner.score)}, their ${m.them.games} score ${pct(m.them.score)}`)),
    );
    out.append(
      h(
        'div',
        { class: 'player-head' },
        h('h2', {}, `${s.username} on ${siteName(s.provider)}`, s.state === 'demo' ? h('span', { class: 'tag' }, 'demo') : null),
        h('p', { class: 'muted' }, s.state === 'demo' ? `${s.message}.` : `${count(s.games, 'game')}${report.window ? ` from ${day(report.window.from)} to ${day(report.window.to)}` : ''} · fetched ${day(s.fetchedAt)}`),
      ),
      s.games === 0
        ? h('p', {}, 'No public games of theirs in the window: nothing to prepare from yet.')
        : h(
            'div',
            { class: 'prep-grid' },
            h('section', { 'data-testid': 'scout-results' }, h('h3', {}, 'Results'), results(report)),
            h('section', {}, h('h3', {}, 'Recent form'), form(report.recentForm)),
            h('section', {}, h('h3', {}, 'Rating'), ratingChart(report.ratingTrend, width)),
            h('section', { 'data-testid': 'scout-worst' }, h('h3', {}, 'Where they score worst'), worst.length ? h('ul', { class: 'lines' }, ...worst) : h('p', { class: 'muted' }, 'No line with three or more of their games scores below the rest yet.')),
            h('section', { class: 'wide', 'data-testid': 'scout-meet' }, h('h3', {}, 'Where your games meet theirs'), meet.length ? h('ul', { class: 'lines' }, ...meet) : h('p', { class: 'muted' }, 'None of your games reaches a position of theirs in the first 16 moves.')),
          ),
      s.games ? tree.el : '',
    );
    if (s.games) await tree.show(report.byColour.white.games >= report.byColour.black.games ? 'white' : 'black', '');
  } catch (err) {
    if (!isCurrent()) return;
    clear(out);
    out.append(h('p', { class: 'error', role: 'alert' }, (err as Error).message));
  }
}

import { api } from '../api.js';
import { h, link } from '../dom.js';
import { colourName, count, day, dayMonth, providerName, sortName, SORT_NAMES, timeClassName } from '../format.js';
import { navigate } from '../router.js';

const SORTS = Object.keys(SORT_NAMES);
const CHOICES: Record<string, string[]> = {
  provider: ['siteA', 'siteB', 'fed', 'manual', 'pgn'],
  result: ['win', 'draw', 'loss'],
  colour: ['white', 'black'],
  timeClass: ['ultraBullet', 'bullet', 'blitz', 'rapid', 'classical', 'daily', 'correspondence', 'standard'],
  reviewed: ['yes', 'no'],
};
const CHOICE_LABELS: Record<string, string> = { timeClass: 'Time class', reviewed: 'Reviewed' };
/** Each menu's values in words (the address keeps the API's keys). */
const CHOICE_NAMES: Record<string, (v: string) => string> = { provider: providerName, colour: colourName, timeClass: timeClassName };
// On a phone the optional columns are hidden (style.css), so a row fits the screen.
const COLUMNS: Array<[string, boolean]> = [['Date', false], ['Source', true], ['Time', true], ['Colour', true], ['Result', false], ['Opponent', false], ['Opening / event', true], ['Moves', true], ['Accuracy', false], ['Reviewed', false]];
const SHORT: Record<string, string> = { Accuracy: 'Acc.', Reviewed: '✓' };

/** The date in full, or on a phone "20 Nov" over "2026" (it wraps between the two, never inside a figure). */
function dateCell(iso: string | null): Array<Node | string> {
  if (!iso) return ['—'];
  return [h('span', { class: 'long' }, day(iso)), h('span', { class: 'short' }, dayMonth(iso), ' ', iso.slice(0, 4))];
}

/** The side the owner played as a square of its colour: beside the word in the Colour column, and before the result on a phone (where that column gives way). */
const chip = (c: string) => h('span', { class: `chip ${c}`, role: 'img', title: `as ${colourName(c)}`, 'aria-label': `as ${colourName(c)}` });
const TEXT_FIELDS: Array<[string, string, string]> = [
  ['q', 'Search', 'search'],
  ['opponent', 'Opponent', 'text'],
  ['opening', 'Opening starts with', 'text'],
  ['lineMoves', 'Line (SAN moves)', 'text'],
  ['from', 'From', 'date'],
  ['to', 'To', 'date'],
];

/** The games list with the spec's filters; the filters live in the address so a view can be linked. */
export async function gamesPage(main: HTMLElement, _params: Record<string, string>, query: URLSearchParams): Promise<void> {
  const form = h('form', { class: 'filters', 'data-testid': 'games-filters' });
  for (const [name, label, type] of TEXT_FIELDS) {
    form.append(h('label', {}, label, h('input', { name, type, value: query.get(name) ?? '', 'data-testid': `filter-${name}` })));
  }
  for (const [name, values] of Object.entries(CHOICES)) {
    const select = h('select', { name, 'data-testid': `filter-${name}` }, h('option', { value: '' }, 'any'), ...values.map((v) => h('option', { value: v, selected: query.get(name) === v }, CHOICE_NAMES[name]?.(v) ?? v)));
    form.append(h('label', {}, CHOICE_LABELS[name] ?? name[0].toUpperCase() + name.slice(1), select));
  }
  form.append(h('label', {}, 'Sort', h('select', { name: 'sort' }, ...SORTS.map((v) => h('option', { value: v, selected: (query.get('sort') ?? 'date-desc') === v }, sortName(v))))));
  form.append(h('button', { type: 'submit', 'data-testid': 'filter-apply' }, 'Apply'));
  form.addEventListener('submit', (e) => {
    e.preventDefault();
    const next = new URLSearchParams();
    for (const [k, v] of new FormData(form)) if (typeof v === 'string' && v.trim() && !(k === 'sort' && v === 'date-desc')) next.set(k, v.trim());
    navigate(`/games${next.size ? `?${next}` : ''}`);
  });

  const input: Record<string, string> = {};
  for (const [k, v] of query) if (k !== 'code') input[k] = v;
  const list = await api('/api/v1/me/games', { query: input });
  const rows = list.games.map((g: any) =>
    h(
      'tr',
      { 'data-testid': 'games-row', 'data-id': g.id },
      h('td', { class: 'date' }, link(`/games/${encodeURIComponent(g.id)}`, ...dateCell(g.playedAt))),
      h('td', { class: 'opt' }, providerName(g.provider)),
      h('td', { class: 'opt' }, timeClassName(g.timeClass)),
      h('td', { class: 'opt colour' }, chip(g.colour), ` ${colourName(g.colour)}`),
      h('td', { class: `result ${g.result}` }, h('span', { class: 'short' }, chip(g.colour)), g.result),
      // A name never breaks inside itself; its rating may go under it.
      h('td', { class: 'opponent' }, h('span', { class: 'name' }, g.opponent ?? '—'), g.opponentRating ? ' ' : '', g.opponentRating ? h('span', { class: 'nowrap' }, `(${g.opponentRating})`) : ''),
      h('td', { class: 'opt' }, g.opening ?? g.event ?? '—'),
      h('td', { class: 'num opt' }, g.movesCount || '—'),
      h('td', { class: 'num' }, g.accuracy ?? '—'),
      h('td', { class: 'reviewed', 'data-reviewed': g.reviewed ? 'yes' : 'no' }, g.reviewed ? h('span', { title: 'reviewed by the engine', 'aria-label': 'reviewed' }, '✓') : h('span', { class: 'muted', 'aria-label': 'not reviewed' }, '—')),
    ),
  );
  const page = list.page as number;
  const pageLink = (p: number, text: string) => {
    const q = new URLSearchParams(query);
    q.set('page', String(p));
    return link(`/games?${q}`, text);
  };
  main.append(
    h('h1', {}, 'Games'),
    // On a phone the filters fold away unless one is set.
    h('details', { class: 'filter-box', open: window.innerWidth > 720 || [...query.keys()].some((k) => k !== 'page' && k !== 'sort') }, h('summary', {}, 'Filters and sort'), form),
    h('p', { class: 'muted', 'data-testid': 'games-total' }, `${count(list.total, 'game')} · page ${page} of ${list.pageCount}`),
    h(
      'table',
      { class: 'games compact' },
      h('thead', {}, h('tr', {}, ...COLUMNS.map(([t, optional]) => h('th', { class: optional ? 'opt' : null }, ...(SHORT[t] ? [h('span', { class: 'long' }, t), h('span', { class: 'short', title: t }, SHORT[t])] : [t]))))),
      h('tbody', {}, ...rows),
    ),
    h('nav', { class: 'pager' }, page > 1 ? pageLink(page - 1, '← Previous') : null, ' ', page < list.pageCount ? pageLink(page + 1, 'Next →') : null),
  );
}

import { api } from '../api.js';
import { h, link } from '../dom.js';
import { engineName, pgnDate } from '../format.js';
import { pgnMoves, replay } from '../positions.js';
import { viewer } from '../viewer.js';

// On a phone the library is a compact table (game, date, result) rather than 62 cards.
const COLUMNS: Array<[string, boolean]> = [['Game', false], ['Event', true], ['Date', false], ['Result', false], ['Opening', true], ['Era', true]];

export async function libraryPage(main: HTMLElement): Promise<void> {
  const data = await api('/api/v1/library');
  const rows = data.games.map((g: any) => [link(`/library/${encodeURIComponent(g.slug)}`, `${g.white} – ${g.black}`), g.event, pgnDate(g.date), g.result, g.opening ?? '', g.era]);
  main.append(
    h('h1', {}, 'Library'),
    h(
      'table',
      { class: 'compact library' },
      h('thead', {}, h('tr', {}, ...COLUMNS.map(([t, opt]) => h('th', { class: opt ? 'opt' : null }, t)))),
      h('tbody', {}, ...rows.map((r: unknown[]) => h('tr', { 'data-testid': 'library-row' }, ...r.map((c, j) => h('td', { class: `${COLUMNS[j][1] ? 'opt' : ''}${COLUMNS[j][0] === 'Date' || COLUMNS[j][0] === 'Result' ? ' nowrap' : ''}` }, c as Node | string))))),
    ),
  );
}

/** The essay is Markdown; it is shown as paragraphs of text (no Markdown → HTML rendering, so nothing can inject markup). */
function essay(text: string): HTMLElement {
  return h('div', { class: 'essay' }, ...text.split(/\n\s*\n/).map((p) => (p.startsWith('#') ? h('h3', {}, p.replace(/^#+\s*/, '')) : h('p', {}, p.replace(/\*\*|__|\*/g, '')))));
}

/** Both players' accuracy from the project's own review of the game (null until it has run). */
function accuracy(a: { white: number; black: number; engine: string; depth: number } | null): HTMLElement {
  if (!a) return h('p', { class: 'muted', 'data-testid': 'accuracy' }, 'Accuracy not computed yet.');
  return h(
    'div',
    { class: 'accuracy', 'data-testid': 'accuracy' },
    h('p', {}, h('strong', {}, `Accuracy: White ${a.white}, Black ${a.black}`)),
    h('p', { class: 'muted', title: a.engine }, `${engineName(a.engine)}, depth ${a.depth}`),
  );
}

export async function libraryGamePage(main: HTMLElement, params: Record<string, string>): Promise<void> {
  const g = await api(`/api/v1/library/${encodeURIComponent(params.slug)}`);
  const { moves, startFen } = pgnMoves(g.pgn);
  const view = viewer(replay(moves, startFen));
  main.append(
    h('p', { class: 'crumb' }, link('/library', '← Library')),
    h('h1', {}, `${g.white} – ${g.black}`),
    h('p', { class: 'muted' }, `${[g.event, g.site, pgnDate(g.date)].filter(Boolean).join(', ')} · ${g.result}${g.opening ? ` · ${g.opening}` : ''}`),
    // The essay beside the board (under the moves), so its move numbers can be followed on the board.
    h('div', { class: 'game library-game' }, view.boardColumn, h('div', { class: 'side' }, accuracy(g.accuracy), view.moveList, h('section', {}, essay(g.essay)))),
  );
  view.go(0);
}

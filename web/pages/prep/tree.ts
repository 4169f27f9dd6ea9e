import { api } from '../../api.js';
import { board } from '../../board.js';
import { clear, h, lineCrumbs, moveLine } from '../../dom.js';
import { count, numberedMove, pct, wdl, WDL_HEADER } from '../../format.js';
import { replay } from '../../positions.js';

type Colour = 'white' | 'black';
export const playerPath = (provider: string, username: string) => `/api/v1/prep/players/${encodeURIComponent(provider)}/${encodeURIComponent(username)}`;

/**
 * A scouted player's opening tree on a board, laid out as the Openings page's (crumbs, board, the next
 * moves as a compact table): their colour, the moves so far, their next moves as buttons. `show`
 * opens it at a line (from "where they score worst" and "where your games meet theirs").
 */
export function scoutTree(provider: string, username: string): { el: HTMLElement; show(colour: Colour, moves: string): Promise<void> } {
  const body = h('div', { class: 'tree', 'data-testid': 'scout-tree' });
  const tabs = (['white', 'black'] as const).map((c) => h('button', { type: 'button', class: 'tab', 'data-colour': c, onclick: () => void show(c, '') }, c === 'white' ? 'They have White' : 'They have Black'));
  async function show(colour: Colour, moves: string): Promise<void> {
    const t = await api(`${playerPath(provider, username)}/openings/${colour}`, { query: { moves } });
    for (const b of tabs) b.classList.toggle('active', b.getAttribute('data-colour') === colour);
    const sans: string[] = t.moves;
    const positions = replay(sans);
    const last = positions[positions.length - 1];
    const crumbs = lineCrumbs(sans, (m) => void show(colour, m), { 'data-testid': 'scout-line' });
    const next = t.nextMoves.length
      ? h(
          'table',
          { class: 'tree-table compact' },
          h('thead', {}, h('tr', {}, h('th', {}, 'Their move'), h('th', {}, 'Games'), h('th', { class: 'opt' }, 'Share'), h('th', {}, WDL_HEADER), h('th', {}, 'Score'))),
          h(
            'tbody',
            {},
            ...t.nextMoves.map((m: any) =>
              h(
                'tr',
                {},
                h('td', {}, h('button', { type: 'button', class: 'tree-move', 'data-san': m.san, 'data-testid': 'tree-move', onclick: () => void show(colour, m.lineMoves) }, numberedMove(sans.length, m.san))),
                h('td', { class: 'num' }, m.games),
                h('td', { class: 'num opt' }, pct(m.share)),
                h('td', { class: 'num nowrap' }, wdl(m)),
                h('td', { class: 'num' }, pct(m.score)),
              ),
            ),
          ),
        )
      : h('p', { class: 'muted' }, t.games ? 'None of their games goes on from here.' : 'None of their games reached this position.');
    clear(body);
    body.append(
      crumbs,
      h(
        'div',
        { class: 'tree-body' },
        h('div', { class: 'tree-board' }, board(last.fen, { orientation: colour, lastMove: last.uci, label: sans.length ? `position after ${sans.join(' ')}` : 'start position' })),
        h('div', { class: 'tree-next' }, h('p', { class: 'muted' }, `${count(t.games, 'game')} of theirs reached this position${t.games ? `; they score ${pct(t.score)}` : ''}.`), next),
      ),
      sans.length ? h('p', { class: 'muted' }, 'Line: ', moveLine(sans)) : '',
    );
  }
  return { el: h('section', { class: 'scout-tree' }, h('h3', {}, 'Their opening tree'), h('div', { class: 'tabs' }, ...tabs), body), show };
}

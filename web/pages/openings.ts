import { api } from '../api.js';
import { board } from '../board.js';
import { clear, h, lineCrumbs, link, moveLine } from '../dom.js';
import { colourName, count, day, num, numberedMove, pct, signed, wdl, WDL_HEADER } from '../format.js';
import { replay } from '../positions.js';
import { currentGeneration, isCurrent } from '../router.js';
import { addPeersColumn, peersCard, type PeersView } from './peers.js';

type Colour = 'white' | 'black';

// The next moves as a compact table (never stacked as cards: a tree reads down a column); on a
// phone the accuracy and evaluation columns give way.
const TREE_COLUMNS: Array<[string, boolean]> = [['Move', false], ['Games', false], [WDL_HEADER, false], ['Score', false], ['Accuracy', true], ['Eval after', true]];
function treeTable(rows: Array<Array<Node | string | number>>): HTMLTableElement {
  return h(
    'table',
    { class: 'tree-table compact' },
    h('thead', {}, h('tr', {}, ...TREE_COLUMNS.map(([t, opt]) => h('th', { class: opt ? 'opt' : null }, t)))),
    h('tbody', {}, ...rows.map((r) => h('tr', {}, ...r.map((c, j) => h('td', { class: `${TREE_COLUMNS[j][1] ? 'opt' : ''}${j ? ' num' : ''}` }, c))))),
  );
}

// Problem lines: the line (with its colour and games link), then the figures; baseline and drop give way on a phone.
const PROBLEM_COLUMNS: Array<[string, boolean]> = [['Line', false], ['Games', false], [WDL_HEADER, false], ['Score', false], ['Your usual', true], ['Below usual', true]];

/** Games with this colour whose moves start with the line, for the list under the tree. */
const gamesQuery = (colour: Colour, line: string) => ({ colour, ...(line ? { lineMoves: line } : {}) });

/**
 * The owner's opening tree (GET /api/v1/settings/openings/{colour}, the computation behind the
 * chess-footprint://openings resource) beside the problem lines: clicking a move follows the tree,
 * the board and the games that reached the line. The line lives in the address (?colour=&moves=).
 */
export async function openingsPage(main: HTMLElement, _p: Record<string, string>, query: URLSearchParams): Promise<void> {
  const g = currentGeneration();
  let colour: Colour = query.get('colour') === 'black' ? 'black' : 'white';
  let line = (query.get('moves') ?? '').trim().split(/\s+/).filter(Boolean).join(' ');
  const problems = await api('/api/v1/me/problem-lines');
  if (!isCurrent(g)) return;

  const tree = h('div', { class: 'tree', 'data-testid': 'opening-tree' });
  const colourButtons = (['white', 'black'] as const).map((c) => h('button', { type: 'button', class: 'tab', 'data-colour': c, 'data-testid': `tree-${c}`, onclick: () => void show(c, '') }, `As ${colourName(c)}`));

  async function show(c: Colour, moves: string): Promise<void> {
    const [node, list, peers] = await Promise.all([
      api(`/api/v1/settings/openings/${c}`, { query: { moves } }),
      api('/api/v1/me/games', { query: gamesQuery(c, moves) }),
      // The peers at the owner's level (issue 40): the page stands without them.
      api<PeersView>(`/api/v1/settings/openings/${c}/peers`, { query: { moves } }).catch(() => null),
    ]);
    if (!document.body.contains(tree)) return;
    colour = c;
    line = moves;
    history.replaceState(null, '', `/openings?${new URLSearchParams({ colour: c, ...(moves ? { moves } : {}) })}`);
    for (const b of colourButtons) b.classList.toggle('active', b.getAttribute('data-colour') === c);
    const sans = moves ? moves.split(' ') : [];
    const positions = replay(sans);
    const last = positions[positions.length - 1];
    // The line as a breadcrumb: each move goes back to the position after it.
    const crumbs = lineCrumbs(sans, (m) => void show(c, m), { 'data-testid': 'tree-line' });
    const next = node.nextMoves.length
      ? treeTable(
          node.nextMoves.map((m: any) => [
            h('button', { type: 'button', class: 'tree-move', 'data-san': m.san, 'data-testid': 'tree-move', onclick: () => void show(c, m.lineMoves) }, numberedMove(sans.length, m.san)),
            m.games,
            wdl(m),
            pct(m.score),
            num(m.averageAccuracy.average),
            m.averageEvalAfter.pawns === null ? '—' : signed(m.averageEvalAfter.pawns, 2),
          ]),
        )
      : h('p', { class: 'muted' }, node.games ? 'No game of yours goes on from here.' : 'None of your games reached this position.');
    if (next instanceof HTMLTableElement) addPeersColumn(next, peers);
    peersBox.replaceChildren(...peersCard(peers, (l) => void show(c, l)).childNodes);
    const games = h(
      'div',
      { 'data-testid': 'tree-games', 'data-total': list.total },
      h('h3', {}, `${count(list.total, 'game')} as ${colourName(c)}${moves ? ' with this line' : ''}`, !moves && list.total > node.games ? h('span', { class: 'muted' }, ` (${list.total - node.games} without recorded moves)`) : null),
      list.games.length
        ? h('ul', { class: 'tree-games' }, ...list.games.slice(0, 8).map((x: any) => h('li', { 'data-testid': 'tree-game' }, link(`/games/${encodeURIComponent(x.id)}`, `${day(x.playedAt)} · ${x.result} vs ${x.opponent}`), x.opening ? h('span', { class: 'muted' }, ` · ${x.opening}`) : null)))
        : null,
      list.total > 8 ? link(`/games?${new URLSearchParams(Object.entries(gamesQuery(c, moves)))}`, `All ${list.total} in the games list →`) : null,
    );
    clear(tree);
    tree.append(
      crumbs,
      h('div', { class: 'tree-body' }, h('div', { class: 'tree-board' }, board(last.fen, { orientation: c, lastMove: last.uci, label: moves ? `position after ${moves}` : 'start position' })), h('div', { class: 'tree-next' }, h('p', { class: 'muted' }, `${count(node.games, 'game')} reached this position · you score ${pct(node.score)}${node.endedHere ? ` · ${node.endedHere} end here` : ''}`), next)),
      games,
    );
  }

  const peersBox = h('section', { class: 'peers', 'data-testid': 'peers-card' });
  const problemSection = h(
    'section',
    { class: 'problems' },
    h('h2', {}, 'Problem lines'),
    h('p', { class: 'muted' }, problems.rules),
    problems.lines.length
      ? h(
          'table',
          { class: 'problem-table compact' },
          h('thead', {}, h('tr', {}, ...PROBLEM_COLUMNS.map(([t, opt]) => h('th', { class: opt ? 'opt' : null }, t)))),
          h(
            'tbody',
            {},
            ...problems.lines.map((l: any) =>
              h(
                'tr',
                {},
                h('td', {}, h('button', { type: 'button', class: 'link line-link', 'data-testid': 'problem-tree', onclick: () => void show(l.colour, l.lineMoves) }, moveLine(l.lineMoves)), h('span', { class: 'muted' }, ` as ${colourName(l.colour)} · `), link(`/games?${new URLSearchParams({ lineMoves: l.lineMoves, colour: l.colour })}`, 'games')),
                h('td', { class: 'num' }, l.games),
                h('td', { class: 'num nowrap' }, wdl(l)),
                h('td', { class: 'num' }, pct(l.score)),
                h('td', { class: 'num opt' }, pct(l.baseline)),
                h('td', { class: 'num opt nowrap' }, `${num(l.drop)} pts`),
              ),
            ),
          ),
        )
      : h('p', {}, 'No problem lines: no opening line scores clearly below your baseline yet.'),
  );
  main.append(
    h('h1', {}, 'Openings'),
    h('div', { class: 'openings' }, h('section', {}, h('h2', {}, 'Your opening tree'), h('div', { class: 'tabs' }, ...colourButtons), tree), h('div', {}, peersBox, problemSection)),
  );
  await show(colour, line);
}

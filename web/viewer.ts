import { board } from './board.js';
import { clear, h } from './dom.js';
import { CLASS_MARK } from './format.js';
import type { Position } from './positions.js';

// A game on a board with its move list and navigation (buttons, arrow keys, Home/End, clicking a
// move): the played game's page and the library's game page both show a game through this.

export interface Viewer {
  /** Board, controls and the line under them. */
  boardColumn: HTMLElement;
  /** The move list (with the symbol legend when moves are classified). */
  moveList: HTMLElement;
  go(ply: number): void;
  current(): number;
}

export interface ViewerOptions {
  orientation?: 'white' | 'black';
  /** The engine's classification of a ply, when the game is reviewed. */
  classification?: (ply: number) => string | undefined;
  /** What to say about the ply shown, under the board. */
  describe?: (ply: number, pos: Position) => Array<Node | string>;
  /** A note on a ply (a study game's comments), shown in the move list under its move pair; ply 0 above the first move. */
  note?: (ply: number) => string | undefined;
  /** Called after every move to a new ply (the evaluation graph follows it). */
  onPly?: (ply: number) => void;
  /** Arrows to draw on the position after a ply (the chat board's moments: the move played, the engine's choice). */
  arrows?: (ply: number) => ReadonlyArray<{ uci: string; kind: 'played' | 'best' }>;
}

const SYMBOLS: Array<[string, string]> = [
  ['brilliant', 'brilliant'],
  ['great', 'great move'],
  ['best', 'best move'],
  ['inaccuracy', 'inaccuracy'],
  ['mistake', 'mistake'],
  ['miss', 'missed win'],
  ['blunder', 'blunder'],
];

/** The symbols of the move list, explained (only those that appear in it). */
function symbolLegend(used: Set<string>): HTMLElement | null {
  const rows = SYMBOLS.filter(([cls]) => used.has(cls) && CLASS_MARK[cls]);
  if (!rows.length) return null;
  return h('ul', { class: 'symbols', 'data-testid': 'move-legend', 'aria-label': 'move symbols' }, ...rows.map(([cls, text]) => h('li', { class: `move ${cls}` }, h('span', { class: 'mark' }, CLASS_MARK[cls]), text)));
}

export function viewer(positions: Position[], opts: ViewerOptions = {}): Viewer {
  let ply = 0;
  const boardBox = h('div', { class: 'board-box' });
  const info = h('div', { class: 'ply-info', 'aria-live': 'polite', 'data-testid': 'ply-info' });
  const moveCells: HTMLElement[] = [];
  const list = h('ol', { class: 'moves', 'data-testid': 'move-list' });
  const used = new Set<string>();
  const noteRow = (ply: number) => {
    const text = opts.note?.(ply);
    return text ? h('li', { class: 'note', 'data-testid': 'move-note', 'data-ply': ply }, h('button', { type: 'button', class: 'note-text', onclick: () => go(ply) }, text)) : null;
  };
  const before = noteRow(0);
  if (before) list.append(before);
  for (let i = 1; i < positions.length; i += 2) {
    // The move number from the ply (a game from a set-up position with Black to move starts at an even ply).
    const li = h('li', {}, h('span', { class: 'num' }, `${Math.ceil(positions[i].ply / 2)}${positions[i].ply % 2 ? '.' : '…'}`));
    for (const p of [positions[i], positions[i + 1]]) {
      if (!p) continue;
      const cls = opts.classification?.(p.ply);
      if (cls) used.add(cls);
      const cell = h('button', { type: 'button', class: `move ${cls ?? ''}`, 'data-ply': p.ply, onclick: () => go(p.ply) }, p.san ?? '', cls && CLASS_MARK[cls] ? h('span', { class: 'mark' }, CLASS_MARK[cls]) : null);
      moveCells[p.ply] = cell;
      li.append(cell);
    }
    list.append(li);
    for (const p of [positions[i], positions[i + 1]]) {
      const row = p ? noteRow(p.ply) : null;
      if (row) list.append(row);
    }
  }

  // A move list taller than its box scrolls: a cue under it names the moves below, so none is hidden without a sign
  // (issue 45 item 9: the list stopped at 17…Be6 with 24 moves below and nothing said so). Clicking it scrolls on.
  const cue = h('button', { type: 'button', class: 'link more-moves hidden', 'data-testid': 'more-moves', onclick: () => list.scrollBy({ top: list.clientHeight * 0.8 }) });
  const updateCue = () => {
    const rows = [...list.children].filter((li) => !li.classList.contains('note')) as HTMLElement[];
    const bottom = list.scrollTop + list.clientHeight;
    const below = rows.filter((li) => li.offsetTop + li.offsetHeight / 2 > bottom);
    const from = below[0]?.querySelector('.num')?.textContent;
    const to = below[below.length - 1]?.querySelector('.num')?.textContent;
    cue.classList.toggle('hidden', !below.length);
    cue.textContent = below.length ? `↓ ${below.length === 1 ? `move ${from?.replace(/[.…]$/, '')}` : `moves ${from?.replace(/[.…]$/, '')}–${to?.replace(/[.…]$/, '')}`} below` : '';
  };
  list.addEventListener('scroll', updateCue, { passive: true });
  if (typeof ResizeObserver !== 'undefined') new ResizeObserver(updateCue).observe(list);

  function go(n: number): void {
    ply = Math.max(0, Math.min(positions.length - 1, n));
    const pos = positions[ply];
    clear(boardBox);
    boardBox.append(board(pos.fen, { orientation: opts.orientation ?? 'white', lastMove: pos.uci, label: `position after ply ${ply}`, arrows: opts.arrows?.(ply) }));
    boardBox.setAttribute('data-ply', String(ply));
    for (const c of moveCells) c?.classList.remove('current');
    const cell = moveCells[ply];
    cell?.classList.add('current');
    // Scroll the move list only (scrollIntoView would scroll the page too).
    if (cell && list.scrollHeight > list.clientHeight) {
      // The cell's place in the list's scrolled content, whatever the list's offset parent.
      const top = cell.getBoundingClientRect().top - list.getBoundingClientRect().top + list.scrollTop;
      if (top < list.scrollTop || top > list.scrollTop + list.clientHeight - cell.offsetHeight) list.scrollTop = top - list.clientHeight / 2;
    }
    clear(info);
    if (ply === 0) info.append('Start position');
    else info.append(h('strong', {}, `${Math.ceil(ply / 2)}${ply % 2 ? '.' : '…'} ${pos.san}`), ...(opts.describe?.(ply, pos) ?? []));
    opts.onPly?.(ply);
    updateCue();
  }

  const controls = h(
    'div',
    { class: 'controls' },
    h('button', { type: 'button', 'aria-label': 'first move', 'data-testid': 'first', onclick: () => go(0) }, '«'),
    h('button', { type: 'button', 'aria-label': 'previous move', 'data-testid': 'prev', onclick: () => go(ply - 1) }, '◀'),
    h('button', { type: 'button', 'aria-label': 'next move', 'data-testid': 'next', onclick: () => go(ply + 1) }, '▶'),
    h('button', { type: 'button', 'aria-label': 'last move', 'data-testid': 'last', onclick: () => go(positions.length - 1) }, '»'),
  );
  const onKey = (e: KeyboardEvent) => {
    if (!document.body.contains(boardBox)) return document.removeEventListener('keydown', onKey);
    if ((e.target as HTMLElement).closest?.('input, textarea, select')) return;
    if (e.key === 'ArrowLeft') go(ply - 1);
    else if (e.key === 'ArrowRight') go(ply + 1);
    else if (e.key === 'Home') go(0);
    else if (e.key === 'End') go(positions.length - 1);
    else return;
    e.preventDefault();
  };
  document.addEventListener('keydown', onKey);
  return { boardColumn: h('div', { class: 'board-col' }, boardBox, controls, info), moveList: h('div', { class: 'move-box' }, list, cue, symbolLegend(used)), go, current: () => ply };
}

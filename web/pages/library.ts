import { api } from '../api.js';
import { board } from '../board.js';
import { clear, h, link, table } from '../dom.js';
import { pgnMoves, replay } from '../positions.js';

export async function libraryPage(main: HTMLElement): Promise<void> {
  const data = await api('/api/v1/library');
  main.append(
    h('h1', {}, 'Library'),
    table(
      ['Game', 'Event', 'Date', 'Result', 'Opening', 'Era'],
      data.games.map((g: any) => [link(`/library/${encodeURIComponent(g.slug)}`, `${g.white} – ${g.black}`), g.event, g.date, g.result, g.opening ?? '', g.era]),
    ),
  );
}

/** The essay is Markdown; it is shown as paragraphs of text (no Markdown → HTML rendering, so nothing can inject markup). */
function essay(text: string): HTMLElement {
  return h('div', { class: 'essay' }, ...text.split(/\n\s*\n/).map((p) => (p.startsWith('#') ? h('h3', {}, p.replace(/^#+\s*/, '')) : h('p', {}, p.replace(/\*\*|__|\*/g, '')))));
}

export async function libraryGamePage(main: HTMLElement, params: Record<string, string>): Promise<void> {
  const g = await api(`/api/v1/library/${encodeURIComponent(params.slug)}`);
  const { moves, startFen } = pgnMoves(g.pgn);
  const positions = replay(moves, startFen);
  let ply = 0;
  const box = h('div', { class: 'board-box' });
  const label = h('p', {});
  const go = (n: number) => {
    ply = Math.max(0, Math.min(positions.length - 1, n));
    clear(box);
    box.append(board(positions[ply].fen, { lastMove: positions[ply].uci }));
    label.textContent = ply ? `${Math.ceil(ply / 2)}${ply % 2 ? '.' : '...'} ${positions[ply].san}` : 'Start position';
  };
  go(0);
  main.append(
    h('h1', {}, `${g.white} – ${g.black}`),
    h('p', { class: 'muted' }, `${g.event}, ${g.site}, ${g.date} · ${g.result} · ${g.opening ?? ''}`),
    h(
      'div',
      { class: 'game' },
      h('div', {}, box, h('div', { class: 'controls' }, h('button', { type: 'button', 'aria-label': 'first move', onclick: () => go(0) }, '«'), h('button', { type: 'button', 'aria-label': 'previous move', onclick: () => go(ply - 1) }, '◀'), h('button', { type: 'button', 'aria-label': 'next move', onclick: () => go(ply + 1) }, '▶'), h('button', { type: 'button', 'aria-label': 'last move', onclick: () => go(positions.length - 1) }, '»')), label),
      h('div', {}, essay(g.essay)),
    ),
  );
}

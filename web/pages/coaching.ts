import { api } from '../api.js';
import { board } from '../board.js';
import { h, stamp, table } from '../dom.js';
import { day, words } from '../format.js';

/** Focuses, the coaching log, and saved positions on boards. */
export async function coachingPage(main: HTMLElement): Promise<void> {
  const [state, positions] = await Promise.all([api('/api/v1/me/coaching/state'), api('/api/v1/me/coaching/positions')]);
  main.append(
    h('h1', {}, 'Coaching'),
    h('section', {}, h('h2', {}, 'Focuses'), h('ul', {}, ...state.focuses.active.map((f: any) => h('li', {}, f.title, h('span', { class: 'muted' }, ` since ${day(f.createdAt)}`)))), state.focuses.recentlyResolved.length ? h('p', { class: 'muted' }, `Recently resolved: ${state.focuses.recentlyResolved.map((f: any) => f.title).join('; ')}`) : null),
    h('section', {}, h('h2', {}, 'Open assignments'), state.openAssignments.length ? h('ul', {}, ...state.openAssignments.map((a: any) => h('li', {}, a.body))) : h('p', { class: 'muted' }, 'None.')),
    h('section', {}, h('h2', {}, 'Log'), table(['When', 'Kind', 'Entry'], state.entries.map((e: any) => [stamp(e.createdAt), words(e.kind), e.body]))),
    h(
      'section',
      {},
      h('h2', {}, `Saved positions (${positions.total})`),
      h(
        'div',
        { class: 'positions' },
        ...positions.positions.map((p: any) =>
          h('figure', { class: 'position' }, board(p.fen, { orientation: p.fen.split(' ')[1] === 'b' ? 'black' : 'white', label: p.label ?? 'saved position' }), h('figcaption', {}, h('strong', {}, p.label ?? ''), h('br', {}), p.why ?? '', p.dueForQuiz ? h('span', { class: 'tag' }, 'due for quiz') : null)),
        ),
      ),
    ),
  );
}

import { api } from '../api.js';
import { board } from '../board.js';
import { h, table } from '../dom.js';
import { day, when } from '../format.js';
import { navigate } from '../router.js';

/** The study collection: upload a PGN, request its review, delete it. */
export async function studyPage(main: HTMLElement): Promise<void> {
  const data = await api('/api/v1/me/study');
  const status = h('p', { 'aria-live': 'polite', class: 'muted' });
  const area = h('textarea', { rows: 8, cols: 70, name: 'pgn', 'aria-label': 'PGN to upload', placeholder: '[Event "…"]\n1. e4 e5 …' });
  const form = h('form', {}, h('h2', {}, 'Upload a game'), area, h('button', { type: 'submit' }, 'Upload'), status);
  form.addEventListener('submit', async (e) => {
    e.preventDefault();
    try {
      await api('/api/v1/me/study', { method: 'POST', body: { pgn: area.value } });
      navigate('/study', true);
    } catch (err) {
      status.textContent = (err as Error).message;
    }
  });
  const act = (fn: () => Promise<unknown>) => async () => {
    try {
      const r: any = await fn();
      status.textContent = r?.note ?? '';
      navigate('/study', true);
    } catch (err) {
      status.textContent = (err as Error).message;
    }
  };
  main.append(
    h('h1', {}, 'Study'),
    table(
      ['White', 'Black', 'Event', 'Date', 'Result', 'Opening', 'Review', ''],
      data.games.map((g: any) => [
        g.white,
        g.black,
        g.event ?? '',
        g.date ?? '',
        g.result ?? '',
        g.opening?.name ?? '',
        g.review.status === 'complete' ? `White ${g.review.accuracyWhite}, Black ${g.review.accuracyBlack}` : g.review.status,
        h(
          'span',
          { class: 'actions' },
          g.review.status === 'none' || g.review.status === 'failed'
            ? h('button', { type: 'button', onclick: act(() => api(`/api/v1/me/study/${encodeURIComponent(g.id)}/review`, { method: 'POST', body: {} })) }, 'Review')
            : null,
          h('button', { type: 'button', class: 'danger', onclick: act(() => (confirm('Delete this study game?') ? api(`/api/v1/me/study/${encodeURIComponent(g.id)}`, { method: 'DELETE' }) : Promise.resolve(null))) }, 'Delete'),
        ),
      ]),
    ),
    form,
  );
}

/** Focuses, the coaching log, and saved positions on boards. */
export async function coachingPage(main: HTMLElement): Promise<void> {
  const [state, positions] = await Promise.all([api('/api/v1/me/coaching/state'), api('/api/v1/me/coaching/positions')]);
  main.append(
    h('h1', {}, 'Coaching'),
    h('section', {}, h('h2', {}, 'Focuses'), h('ul', {}, ...state.focuses.active.map((f: any) => h('li', {}, f.title, h('span', { class: 'muted' }, ` since ${day(f.createdAt)}`)))), state.focuses.recentlyResolved.length ? h('p', { class: 'muted' }, `Recently resolved: ${state.focuses.recentlyResolved.map((f: any) => f.title).join('; ')}`) : null),
    h('section', {}, h('h2', {}, 'Open assignments'), state.openAssignments.length ? h('ul', {}, ...state.openAssignments.map((a: any) => h('li', {}, a.body))) : h('p', { class: 'muted' }, 'None.')),
    h('section', {}, h('h2', {}, 'Log'), table(['When', 'Kind', 'Entry'], state.entries.map((e: any) => [when(e.createdAt), e.kind, e.body]))),
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

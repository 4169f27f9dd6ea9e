import { plyGraph, plyVerdict } from '../analysis.js';
import { api } from '../api.js';
import { append, h, link, table } from '../dom.js';
import { num, pgnDate } from '../format.js';
import { pgnMoves, replay } from '../positions.js';
import { navigate } from '../router.js';
import { viewer } from '../viewer.js';

const REVIEW_WORDS: Record<string, string> = { none: 'not reviewed', queued: 'queued for review', running: 'being reviewed', failed: 'review failed' };
const reviewText = (r: { status: string; accuracyWhite: number | null; accuracyBlack: number | null }) =>
  r.status === 'complete' ? `White ${num(r.accuracyWhite)}, Black ${num(r.accuracyBlack)}` : (REVIEW_WORDS[r.status] ?? r.status);
const players = (g: { white: string | null; black: string | null }) => `${g.white ?? '?'} – ${g.black ?? '?'}`;

/** The study collection: each game opens on the board; upload a PGN, request its review, delete it. */
export async function studyPage(main: HTMLElement): Promise<void> {
  const data = await api('/api/v1/me/study');
  const status = h('p', { 'aria-live': 'polite', class: 'muted' });
  const area = h('textarea', { rows: 8, cols: 70, name: 'pgn', 'aria-label': 'PGN to upload', placeholder: '[Event "…"]\n1. e4 e5 …' });
  const form = h('form', { class: 'card' }, h('h2', {}, 'Upload a game'), h('p', { class: 'muted' }, 'A PGN with your comments: each comment becomes a note beside its move.'), area, h('button', { type: 'submit' }, 'Upload'), status);
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
    h('p', { class: 'muted' }, 'Games to learn from, with your notes: open one to step through it on the board.'),
    data.games.length
      ? table(
          ['Game', 'Event', 'Date', 'Result', 'Opening', 'Notes', 'Review', ''],
          data.games.map((g: any) => [
            link(`/study/${encodeURIComponent(g.id)}`, players(g)),
            g.event ?? '',
            pgnDate(g.date),
            g.result ?? '',
            g.opening?.name ?? '',
            g.notesCount ? String(g.notesCount) : '—',
            reviewText(g.review),
            h(
              'span',
              { class: 'actions' },
              g.review.status === 'none' || g.review.status === 'failed'
                ? h('button', { type: 'button', onclick: act(() => api(`/api/v1/me/study/${encodeURIComponent(g.id)}/review`, { method: 'POST', body: {} })) }, 'Analyse')
                : null,
              h('button', { type: 'button', class: 'danger', onclick: act(() => (confirm('Delete this study game?') ? api(`/api/v1/me/study/${encodeURIComponent(g.id)}`, { method: 'DELETE' }) : Promise.resolve(null))) }, 'Delete'),
            ),
          ]),
          (i) => ({ 'data-testid': 'study-row', 'data-id': data.games[i].id }),
        )
      : h('p', {}, 'No study games yet: upload a PGN below (a game you want to learn from, with your notes as comments).'),
    form,
  );
}

/** A study game on the shared viewer: its moves, the owner's notes beside them, its analysis once reviewed. */
export async function studyGamePage(main: HTMLElement, params: Record<string, string>): Promise<void> {
  const id = params.id;
  const data = await api(`/api/v1/settings/study/${encodeURIComponent(id)}`);
  const g = data.game;
  const { moves, startFen } = pgnMoves(data.pgn);
  const notes = new Map<number, string>(data.notes.map((n: { ply: number; text: string }) => [n.ply, n.text]));
  const byPly = new Map<number, any>(data.plies.map((p: any) => [p.ply, p]));
  const graph = plyGraph(data.plies, (n) => view.go(n), main.clientWidth - 24);
  const view = viewer(replay(moves, startFen), {
    classification: (n) => byPly.get(n)?.classification,
    note: (n) => notes.get(n),
    describe: (n) => {
      const a = byPly.get(n);
      return [
        a ? plyVerdict(a) : '',
        a?.bestMove ? h('span', { class: 'muted' }, ` · engine preferred ${a.bestMove}`) : '',
        notes.get(n) ? h('p', { class: 'ply-note' }, notes.get(n)!) : '',
      ];
    },
    onPly: (n) => graph?.mark(n),
  });
  const reviewBox =
    g.review.status === 'complete'
      ? h('p', { 'data-testid': 'accuracy' }, h('strong', {}, `Accuracy: ${reviewText(g.review)}`))
      : h(
          'div',
          { class: 'review-offer' },
          h('p', { 'data-testid': 'review-status' }, g.review.status === 'none' ? 'Not analysed yet: the engine marks every move and draws the evaluation graph.' : `This game is ${REVIEW_WORDS[g.review.status] ?? g.review.status}.`),
          g.review.status === 'none' || g.review.status === 'failed'
            ? h(
                'button',
                {
                  type: 'button',
                  'data-testid': 'study-review',
                  onclick: async (e: Event) => {
                    (e.target as HTMLButtonElement).disabled = true;
                    await api(`/api/v1/me/study/${encodeURIComponent(id)}/review`, { method: 'POST', body: {} }).catch(() => {});
                    navigate(location.pathname, true);
                  },
                },
                'Request analysis',
              )
            : null,
        );
  append(main, [
    h('p', { class: 'crumb' }, link('/study', '← Study')),
    h('h1', {}, players(g)),
    h('p', { class: 'muted' }, [g.event, pgnDate(g.date), g.result, g.opening?.name].filter(Boolean).join(' · '), notes.size ? ` · ${notes.size === 1 ? 'one note' : `${notes.size} notes`}` : ''),
    h('div', { class: 'game study-game' }, view.boardColumn, h('div', { class: 'side' }, reviewBox, view.moveList)),
    graph ? h('section', {}, h('h2', {}, 'Evaluation'), graph.svg) : null,
  ]);
  view.go(0);
}

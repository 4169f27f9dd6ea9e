import { plyGraph, plyVerdict } from '../analysis.js';
import { api } from '../api.js';
import { append, h } from '../dom.js';
import { day, engineName, providerName, timeClassName, when } from '../format.js';
import { isCurrent, currentGeneration, navigate } from '../router.js';
import { pgnStartFen, replay, type Position } from '../positions.js';
import { viewer } from '../viewer.js';

/** Every analysed ply: get_game_analysis pages through at most 120 plies a call. */
async function allPlies(id: string): Promise<any[]> {
  const plies: any[] = [];
  let from: number | null = 1;
  while (from !== null) {
    const page: any = await api(`/api/v1/me/games/${encodeURIComponent(id)}/analysis`, { query: { fromPly: from, limit: 120 } });
    if (!page.analysed) return [];
    plies.push(...page.plies);
    from = page.pagination.nextFromPly ?? null;
  }
  return plies;
}

export async function gamePage(main: HTMLElement, params: Record<string, string>): Promise<void> {
  const g = currentGeneration();
  const id = params.id;
  const [game, me] = await Promise.all([api(`/api/v1/me/games/${encodeURIComponent(id)}`), api('/api/v1/me')]);
  // A game of a demo connection (a made-up account) has no game at the source to open (issue 45 item 9).
  const madeUp = (me.connections as Array<{ provider: string; status: string }>).some((c) => c.provider === game.provider && c.status === 'demo');
  const reviewed = Boolean(game.review);
  const [plies, moments] = reviewed ? await Promise.all([allPlies(id), api(`/api/v1/me/games/${encodeURIComponent(id)}/critical-moments`)]) : [[], null];
  if (!isCurrent(g)) return;

  const title = `${game.colour === 'white' ? 'You' : game.opponent ?? '?'} – ${game.colour === 'black' ? 'You' : game.opponent ?? '?'}`;
  main.append(
    h('h1', {}, title),
    h(
      'p',
      { class: 'muted' },
      `${providerName(game.provider)} · ${timeClassName(game.timeClass)} · ${day(game.playedAt)} · ${game.result}${game.opening ? ` · ${game.opening}` : ''}${game.event ? ` · ${game.event}` : ''}`,
    ),
  );

  const positions: Position[] = game.moves?.length ? replay(game.moves, pgnStartFen(game.pgn)) : [];
  if (!positions.length) {
    main.append(attachForm(id));
    return;
  }
  const byPly = new Map<number, any>(plies.map((p) => [p.ply, p]));
  const width = main.clientWidth - 24;
  const graph = plyGraph(plies, (n) => view.go(n), width);
  const view = viewer(positions, {
    orientation: game.colour === 'black' ? 'black' : 'white',
    classification: (n) => byPly.get(n)?.classification,
    describe: (n) => {
      const a = byPly.get(n);
      return [
        a ? plyVerdict(a) : '',
        a && !a.isBestMove && a.bestMove ? h('span', { class: 'muted' }, ` · engine preferred ${a.bestMove.san}`) : '',
      ];
    },
    onPly: (n) => graph?.mark(n),
  });

  append(main, [
    // Unreviewed, the offer to review sits beside the board, where the review's figures would be.
    h('div', { class: 'game' }, view.boardColumn, h('div', { class: 'side' }, accuracy(game), view.moveList, reviewed ? null : reviewSection(id))),
    graph
      ? h(
          'section',
          {},
          h('h2', {}, 'Evaluation'),
          graph.svg,
          h('p', { class: 'muted evalnote' }, 'White’s winning chances after each move (lichess’s win% curve); the scale is the engine’s evaluation in pawns, 0 = level. Dots mark inaccuracies, mistakes and blunders.'),
        )
      : null,
    reviewed ? momentsSection(moments, view.go) : null,
    // A source's URL is untrusted too: only http(s) becomes a link (never javascript: or data:).
    madeUp
      ? h('p', { class: 'muted', 'data-testid': 'source-link' }, `A made-up game of the demo: there is no game at ${providerName(game.provider)} to open.`)
      : h('p', { 'data-testid': 'source-link' }, /^https?:\/\//i.test(game.sourceUrl ?? '') ? h('a', { href: game.sourceUrl, rel: 'noopener noreferrer', target: '_blank' }, 'Open at the source') : null),
  ]);
  view.go(0);
}

function accuracy(game: any): HTMLElement | null {
  const r = game.review;
  // Unreviewed, the review offer beside the board says so; a platform's accuracy is still shown.
  if (!r) return game.accuracy !== null ? h('p', { class: 'muted' }, `Accuracy ${game.accuracy} (${game.accuracySource})`) : null;
  const counts = Object.entries(r.classificationCounts ?? {}).filter(([, n]) => (n as number) > 0);
  return h(
    'div',
    { class: 'accuracy', 'data-testid': 'accuracy' },
    h('p', {}, h('strong', {}, `Accuracy: White ${r.accuracyWhite}, Black ${r.accuracyBlack}`)),
    h('p', { class: 'muted', title: r.engineVersion }, `${engineName(r.engineVersion)}, depth ${r.depth}, reviewed ${when(r.analysedAt)}`),
    h('p', { class: 'muted' }, counts.map(([k, n]) => `${k} ${n}`).join(' · ')),
  );
}

function momentsSection(data: any, go: (ply: number) => void): HTMLElement {
  const items = (data?.moments ?? []).map((m: any) => {
    const answer = h(
      'div',
      { class: 'answer hidden' },
      h('p', {}, `Best: ${m.bestMove?.san ?? '—'}`, m.acceptableAnswers?.length > 1 ? ` (also ${m.acceptableAnswers.slice(1).map((a: any) => a.san).join(', ')})` : ''),
      h('p', {}, m.summary ?? ''),
    );
    const reveal = h('button', { type: 'button', 'data-testid': 'moment-reveal' }, 'Show the best move');
    reveal.addEventListener('click', () => {
      answer.classList.remove('hidden');
      reveal.remove();
    });
    return h(
      'li',
      { class: 'moment', 'data-testid': 'moment', 'data-ply': m.ply },
      h('button', { type: 'button', class: 'link', onclick: () => go(m.ply) }, `Move ${m.moveNumber}${m.sideToMove === 'white' ? '.' : '…'} ${m.playedMove?.san ?? ''}`),
      ` — ${m.type}, ${m.severity}${m.isUserMove ? ' (your move)' : ''}`,
      m.trainingQuestion ? h('p', {}, m.trainingQuestion) : null,
      m.hints?.length ? h('ul', { class: 'hints' }, ...m.hints.map((t: string) => h('li', {}, t))) : null,
      reveal,
      answer,
    );
  });
  return h('section', {}, h('h2', {}, 'Critical moments'), items.length ? h('ol', { class: 'moments' }, ...items) : h('p', { class: 'muted' }, 'No critical moments in this game.'));
}

function reviewSection(id: string): HTMLElement {
  const status = h('p', { 'aria-live': 'polite', 'data-testid': 'review-status' });
  const button = h('button', { type: 'button', 'data-testid': 'request-review' }, 'Request review');
  const poll = async () => {
    // Polling ends when the page is left.
    if (!document.body.contains(status)) return;
    const q = await api('/api/v1/settings/reviews');
    const mine = q.active.find((j: any) => j.subjectKind === 'game' && j.subjectId === id);
    if (!mine) return navigate(location.pathname, true);
    status.textContent = mine.status === 'running' ? 'The engine is reviewing this game…' : `Queued: place ${mine.position} in the review queue`;
    setTimeout(() => void poll().catch((e) => (status.textContent = e.message)), 2000);
  };
  button.addEventListener('click', async () => {
    button.disabled = true;
    try {
      const r = await api(`/api/v1/me/games/${encodeURIComponent(id)}/review`, { method: 'POST', body: {} });
      status.textContent = r.note;
      if (r.status === 'complete') return navigate(location.pathname, true);
      await poll();
    } catch (err) {
      status.textContent = (err as Error).message;
      button.disabled = false;
    }
  });
  return h(
    'section',
    { class: 'review-offer' },
    h('h2', {}, 'Engine review'),
    h('p', {}, 'Not reviewed yet. A review runs Stockfish over every move: the accuracy of both players, each move marked (★ best, ?! inaccuracy, ? mistake, ?? blunder), an evaluation graph and the critical moments to train on.'),
    button,
    status,
  );
}

function attachForm(id: string): HTMLElement {
  const area = h('textarea', { rows: 10, cols: 70, name: 'pgn', 'aria-label': 'PGN', 'data-testid': 'attach-pgn-text', placeholder: '[Event "…"]\n1. e4 e5 …' });
  const status = h('p', { 'aria-live': 'polite' });
  const form = h('form', {}, h('h2', {}, 'Attach PGN'), h('p', {}, 'This game has no moves stored (an over-the-board result). Paste its PGN to see it on a board and review it.'), area, h('button', { type: 'submit' }, 'Attach'), status);
  form.addEventListener('submit', async (e) => {
    e.preventDefault();
    try {
      const r = await api(`/api/v1/me/games/${encodeURIComponent(id)}`, { method: 'POST', body: { pgn: area.value } });
      status.textContent = r.note;
      navigate(location.pathname, true);
    } catch (err) {
      status.textContent = (err as Error).message;
    }
  });
  return form;
}


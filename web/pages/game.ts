import { api } from '../api.js';
import { board } from '../board.js';
import { evalGraph } from '../charts.js';
import { clear, h } from '../dom.js';
import { append } from '../dom.js';
import { CLASS_MARK, day, evalText, providerName, when, whiteWinChances } from '../format.js';
import { isCurrent, currentGeneration, navigate } from '../router.js';
import { pgnStartFen, replay, type Position } from '../positions.js';

/** evalAfter is in the side-to-move frame (after White's move, Black's): turn it to White's. */
const whiteFrame = (e: any, sign: 1 | -1) => (e ? { ...e, value: e.value * sign } : e);

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
  const game = await api(`/api/v1/me/games/${encodeURIComponent(id)}`);
  const reviewed = Boolean(game.review);
  const [plies, moments] = reviewed ? await Promise.all([allPlies(id), api(`/api/v1/me/games/${encodeURIComponent(id)}/critical-moments`)]) : [[], null];
  if (!isCurrent(g)) return;

  const title = `${game.colour === 'white' ? 'You' : game.opponent ?? '?'} – ${game.colour === 'black' ? 'You' : game.opponent ?? '?'}`;
  main.append(
    h('h1', {}, title),
    h(
      'p',
      { class: 'muted' },
      `${providerName(game.provider)} · ${game.timeClass ?? ''} · ${day(game.playedAt)} · ${game.result}${game.opening ? ` · ${game.opening}` : ''}${game.event ? ` · ${game.event}` : ''}`,
    ),
  );

  const positions: Position[] = game.moves?.length ? replay(game.moves, pgnStartFen(game.pgn)) : [];
  if (!positions.length) {
    main.append(attachForm(id));
    return;
  }
  const byPly = new Map<number, any>(plies.map((p) => [p.ply, p]));
  let ply = 0;
  const boardBox = h('div', { class: 'board-box' });
  const info = h('div', { class: 'ply-info', 'aria-live': 'polite', 'data-testid': 'ply-info' });
  const moveCells: HTMLElement[] = [];
  const moveList = h('ol', { class: 'moves', 'data-testid': 'move-list' });
  for (let i = 1; i < positions.length; i += 2) {
    const li = h('li', {});
    for (const p of [positions[i], positions[i + 1]]) {
      if (!p) continue;
      const cls = byPly.get(p.ply)?.classification as string | undefined;
      const cell = h('button', { type: 'button', class: `move ${cls ?? ''}`, 'data-ply': p.ply, onclick: () => go(p.ply) }, p.san ?? '', cls && CLASS_MARK[cls] ? h('span', { class: 'mark' }, CLASS_MARK[cls]) : null);
      moveCells[p.ply] = cell;
      li.append(cell);
    }
    moveList.append(li);
  }
  const graph = plies.length
    ? evalGraph(
        plies.map((p) => ({ ply: p.ply, whiteChances: whiteWinChances(p.evalAfter, p.colour === 'white' ? -1 : 1), cls: p.classification })),
        (n) => go(n),
      )
    : null;

  function go(n: number): void {
    ply = Math.max(0, Math.min(positions.length - 1, n));
    const pos = positions[ply];
    clear(boardBox);
    boardBox.append(board(pos.fen, { orientation: game.colour === 'black' ? 'black' : 'white', lastMove: pos.uci, label: `position after ply ${ply}` }));
    boardBox.setAttribute('data-ply', String(ply));
    for (const c of moveCells) c?.classList.remove('current');
    moveCells[ply]?.classList.add('current');
    moveCells[ply]?.scrollIntoView({ block: 'nearest' });
    graph?.mark(ply);
    const a = byPly.get(ply);
    clear(info);
    if (ply === 0) info.append('Start position');
    else
      info.append(
        h('strong', {}, `${Math.ceil(ply / 2)}${ply % 2 ? '.' : '...'} ${pos.san}`),
        a ? ` · ${a.classification} · ${evalText(whiteFrame(a.evalAfter, a.colour === 'white' ? -1 : 1))} (White’s view)` : '',
        a && !a.isBestMove && a.bestMove ? h('span', { class: 'muted' }, ` · engine preferred ${a.bestMove.san}`) : '',
      );
  }

  const controls = h(
    'div',
    { class: 'controls' },
    h('button', { type: 'button', 'aria-label': 'first move', onclick: () => go(0) }, '«'),
    h('button', { type: 'button', 'aria-label': 'previous move', 'data-testid': 'prev', onclick: () => go(ply - 1) }, '◀'),
    h('button', { type: 'button', 'aria-label': 'next move', 'data-testid': 'next', onclick: () => go(ply + 1) }, '▶'),
    h('button', { type: 'button', 'aria-label': 'last move', onclick: () => go(positions.length - 1) }, '»'),
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

  append(main, [
    h('div', { class: 'game' }, h('div', {}, boardBox, controls, info), h('div', { class: 'side' }, accuracy(game), moveList)),
    graph ? h('section', {}, h('h2', {}, 'Evaluation'), graph.svg) : null,
    reviewed ? momentsSection(moments, go) : reviewSection(id),
    // A source's URL is untrusted too: only http(s) becomes a link (never javascript: or data:).
    h('p', {}, /^https?:\/\//i.test(game.sourceUrl ?? '') ? h('a', { href: game.sourceUrl, rel: 'noopener noreferrer', target: '_blank' }, 'Open at the source') : null),
  ]);
  go(0);
}

function accuracy(game: any): HTMLElement {
  const r = game.review;
  if (!r) return h('p', { class: 'muted' }, game.accuracy !== null ? `Accuracy ${game.accuracy} (${game.accuracySource})` : 'Not reviewed yet');
  const counts = Object.entries(r.classificationCounts ?? {}).filter(([, n]) => (n as number) > 0);
  return h(
    'div',
    { class: 'accuracy', 'data-testid': 'accuracy' },
    h('p', {}, h('strong', {}, `Accuracy: White ${r.accuracyWhite}, Black ${r.accuracyBlack}`)),
    h('p', { class: 'muted' }, `${r.engineVersion}, depth ${r.depth}, reviewed ${when(r.analysedAt)}`),
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
      h('button', { type: 'button', class: 'link', onclick: () => go(m.ply) }, `Move ${m.moveNumber}${m.sideToMove === 'white' ? '.' : '...'} ${m.playedMove?.san ?? ''}`),
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
  return h('section', {}, h('h2', {}, 'Engine review'), h('p', {}, 'This game has not been reviewed. A review runs Stockfish over every move.'), button, status);
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


import { plyEvalText, plyGraph, plyVerdict } from '../analysis.js';
import { board } from '../board.js';
import { clear, h } from '../dom.js';
import { replay, type Position } from '../positions.js';
import { viewer } from '../viewer.js';
import type { GameView, MomentView, ReviewPly } from './answer.js';
import { moveLabel, type MoveFacts, type Shown } from './context.js';

// The chat board: the dashboard's board, move list and evaluation graph (web/viewer.ts, web/analysis.ts), with the
// answer's critical moments (or a library game's key move) drawn from the position before them and their engine's
// choice hidden until asked, as on the dashboard's game page.

export interface BoardView {
  root: HTMLElement;
  go(ply: number): void;
  current(): number;
}

interface Mark {
  ply: number;
  label: string;
  best: { san: string; uci: string | null } | null;
  moment: MomentView | null;
}

function marksOf(view: GameView): Map<number, Mark> {
  const marks = new Map<number, Mark>();
  for (const m of view.moments) {
    const what = m.type ?? m.judgment ?? m.classification ?? 'a large loss';
    marks.set(m.ply, { ply: m.ply, label: `a critical moment (${what}, ${m.severity}${m.isUserMove ? ', your move' : ''})`, best: m.bestMove, moment: m });
  }
  if (view.keyPly) marks.set(view.keyPly, { ply: view.keyPly, label: "the key move of the library's essay", best: null, moment: null });
  return marks;
}

/**
 * The single position an answer names (the first moment, an analysis page's first ply) before the rest of the game
 * arrives, or for good when the host cannot fetch it: the board, the moment's move drawn, the model told.
 */
export function positionOnly(view: GameView, fen: string, onShown: (shown: Shown) => void): HTMLElement {
  const moment = view.moments[0];
  const page = view.plies[0];
  const arrows = moment?.playedMove.uci ? [{ uci: moment.playedMove.uci, kind: 'played' as const }] : [];
  const ply = moment ? moment.ply - 1 : (page?.ply ?? 0);
  onShown({
    title: view.title,
    gameId: view.gameId,
    slug: null,
    ply,
    totalPlies: null,
    fen,
    last: page && !moment ? { ply: page.ply, san: page.playedMove.san, judgment: page.judgment, classification: page.classification, evaluation: page.evalAfter ? plyEvalText(page) : null } : null,
    next: moment ? { ply: moment.ply, san: moment.playedMove.san, judgment: moment.judgment, classification: moment.classification, evaluation: null } : null,
    moment: moment ? { label: marksOf(view).get(moment.ply)!.label, engineChoice: moment.bestMove?.san ?? null, revealed: false } : null,
  });
  return h(
    'div',
    { class: 'chat-board single' },
    h('h1', {}, view.title),
    h('div', { class: 'board-box' }, board(fen, { orientation: view.orientation, arrows })),
    h('p', { class: 'muted', 'data-testid': 'note' }, 'Loading the rest of the game…'),
  );
}

/** The whole game on the board; `onShown` hears every position change (the model context). */
export function gameBoard(view: GameView, width: number, onShown: (shown: Shown) => void): BoardView {
  const positions: Position[] = replay(view.moves ?? [], view.startFen);
  const total = positions.length - 1;
  const byPly = new Map<number, ReviewPly>(view.plies.map((p) => [p.ply, p]));
  const marks = marksOf(view);
  const revealed = new Set<number>();
  const facts = (ply: number): MoveFacts | null => {
    const pos = positions[ply];
    if (!pos?.san) return null;
    const p = byPly.get(ply);
    return { ply, san: pos.san, judgment: p?.judgment ?? null, classification: p?.classification ?? null, evaluation: p && p.evalAfter ? plyEvalText(p) : null };
  };

  const graph = plyGraph(view.plies, (n) => v.go(n), width);
  const panel = h('div', { class: 'moment-panel', 'aria-live': 'polite', 'data-testid': 'moment-panel' });
  const v = viewer(positions, {
    orientation: view.orientation,
    classification: (n) => byPly.get(n)?.classification,
    describe: (n) => {
      const p = byPly.get(n);
      return [p ? plyVerdict(p) : '', p && !p.isBestMove && p.bestMove ? h('span', { class: 'muted' }, ` · engine preferred ${p.bestMove.san}`) : ''];
    },
    arrows: (n) => {
      const mark = marks.get(n + 1);
      const played = positions[n + 1]?.uci ?? mark?.moment?.playedMove.uci;
      if (!mark || !played) return [];
      const best = revealed.has(mark.ply) && mark.best?.uci && mark.best.uci !== played ? [{ uci: mark.best.uci, kind: 'best' as const }] : [];
      return [{ uci: played, kind: 'played' as const }, ...best];
    },
    onPly: (n) => {
      graph?.mark(n);
      showPanel(n);
      const mark = marks.get(n + 1);
      onShown({
        title: view.title,
        gameId: view.gameId,
        slug: null,
        ply: n,
        totalPlies: total,
        fen: positions[n].fen,
        last: facts(n),
        next: facts(n + 1),
        moment: mark ? { label: mark.label, engineChoice: mark.best?.san ?? null, revealed: revealed.has(mark.ply) } : null,
      });
    },
  });

  function showPanel(n: number): void {
    clear(panel);
    const mark = marks.get(n + 1);
    const played = positions[n + 1]?.san;
    if (!mark || !played) return;
    panel.append(h('p', {}, h('strong', {}, `Next: ${moveLabel(mark.ply, played)}`), ` — ${mark.label}`));
    if (mark.moment?.trainingQuestion) panel.append(h('p', {}, mark.moment.trainingQuestion));
    if (!mark.best) return;
    if (revealed.has(mark.ply)) {
      panel.append(h('p', { 'data-testid': 'engine-choice' }, `Engine's choice: ${moveLabel(mark.ply, mark.best.san)}`));
      return;
    }
    panel.append(
      h(
        'button',
        {
          type: 'button',
          'data-testid': 'reveal',
          onclick: () => {
            revealed.add(mark.ply);
            v.go(v.current());
          },
        },
        "Show the engine's choice",
      ),
    );
  }

  const jumps = [...marks.values()]
    .sort((a, b) => a.ply - b.ply)
    .map((m) => h('button', { type: 'button', class: 'jump', 'data-testid': 'jump', 'data-ply': m.ply, onclick: () => v.go(m.ply - 1) }, positions[m.ply]?.san ? moveLabel(m.ply, positions[m.ply].san!) : `ply ${m.ply}`));
  const root = h(
    'div',
    { class: 'chat-board' },
    h('h1', {}, view.title),
    h('div', { class: 'game' }, h('div', { class: 'main-col' }, v.boardColumn, panel), h('div', { class: 'side' }, v.moveList)),
    jumps.length ? h('nav', { class: 'jumps', 'aria-label': view.keyPly ? 'key move' : 'critical moments' }, h('span', { class: 'muted' }, view.keyPly ? 'Key move: ' : 'Moments: '), ...jumps) : null,
    graph ? h('div', { class: 'graph' }, graph.svg) : null,
  );
  return { root, go: v.go, current: v.current };
}

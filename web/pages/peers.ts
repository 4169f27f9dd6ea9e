import { h, prose } from '../dom.js';
import { lineMove, numberedMove, pct } from '../format.js';

/**
 * The Openings page's "at your level" parts (issue 40), from GET /api/v1/settings/openings/{colour}/peers
 * (the chess-footprint://openings/{colour}/peers resource): a column added to the tree's table and a
 * findings card. Kept apart from openings.ts so the page only calls them.
 */

interface PeerFigure {
  san: string;
  games: number;
  share: number;
  score: number | null;
}
interface PeersMove {
  san: string;
  peers: PeerFigure | null;
}
interface PeersFinding {
  lineMoves: string;
  san: string;
  reasons: Array<'scoresWorse' | 'rare'>;
  games: number;
  score: number;
  peers: PeerFigure | null;
  alternative: PeerFigure | null;
  pointsAtStake: number | null;
}
export interface PeersView {
  level: { timeClass: string; ratings: number[]; speeds: string[]; from: string } | null;
  status: { state: string; message: string | null; positions: number; cached: number; progress: { done: number; total: number } | null };
  position: { peerGames: number; mostPlayed: PeerFigure | null; bestScoring: PeerFigure | null; moves: PeersMove[] } | null;
  findings: PeersFinding[];
}

const figure = (f: PeerFigure | null) => (f ? `${pct(f.share)}${f.score === null ? '' : ` · ${pct(f.score)}`}` : '—');

/** Adds the "At your level" column (the peers' share · score with each move) to the tree's table. */
export function addPeersColumn(table: HTMLTableElement, view: PeersView | null): void {
  const byMove = new Map((view?.position?.moves ?? []).map((m) => [m.san, m.peers]));
  const headRow = table.tHead?.rows[0];
  if (!headRow) return;
  const explain = 'lichess players at your rating and speed: the share of their games with the move, and their score with it (shown from 100 games)';
  // Before the optional columns (accuracy, evaluation), which give way first on narrow screens.
  const at = Array.from(headRow.cells).findIndex((c) => c.classList.contains('opt'));
  const place = (row: HTMLTableRowElement, cell: HTMLTableCellElement) => row.insertBefore(cell, at < 0 ? null : (row.cells[at] ?? null));
  place(headRow, h('th', { class: 'peers-col', title: explain }, 'At your level', h('span', { class: 'peers-sub' }, 'played · score')));
  // Share over score, stacked: the tree's table is already narrow beside the board.
  for (const row of Array.from(table.tBodies[0]?.rows ?? [])) {
    const san = row.querySelector('[data-san]')?.getAttribute('data-san') ?? '';
    const peers = view?.position ? (byMove.get(san) ?? null) : null;
    place(
      row,
      h(
        'td',
        { class: 'num peers-col', 'data-testid': 'peers-cell', title: explain },
        peers ? h('span', { class: 'peers-share' }, pct(peers.share)) : '—',
        peers ? h('span', { class: 'peers-score' }, pct(peers.score)) : null,
      ),
    );
  }
}

/** The findings card: the band compared, what is missing, and the ranked findings (each opens its line in the tree). */
export function peersCard(view: PeersView | null, open: (line: string) => void): HTMLElement {
  const box = h('section', { class: 'peers', 'data-testid': 'peers-card' }, h('h2', {}, 'At your level'));
  if (!view) return (box.append(h('p', { class: 'muted' }, 'The peers’ figures could not be read just now.')), box);
  if (view.level) {
    box.append(h('p', { class: 'muted', 'data-testid': 'peers-level' }, `lichess players rated ${view.level.ratings.join(', ')}+ · ${view.level.speeds.join(', ')} · from ${view.level.from} · ${view.status.cached} of ${view.status.positions} positions`));
  }
  if (view.status.message) box.append(h('p', { 'data-testid': 'peers-message' }, ...prose(view.status.message), view.status.progress ? ` (${view.status.progress.done}/${view.status.progress.total})` : ''));
  if (view.findings.length) {
    box.append(
      h(
        'ol',
        { class: 'peers-findings' },
        ...view.findings.slice(0, 8).map((f) => {
          const sans = f.lineMoves ? f.lineMoves.split(' ') : [];
          return h(
            'li',
            { 'data-testid': 'peers-finding' },
            h('button', { type: 'button', class: 'link', onclick: () => open(f.lineMoves) }, [...sans.map((san, i) => lineMove(i, san)), numberedMove(sans.length, f.san)].join(' ')),
            ' ',
            ...f.reasons.map((r) => h('span', { class: 'tag' }, r === 'scoresWorse' ? 'scores worse' : 'rare')),
            h(
              'div',
              { class: 'muted' },
              `You: ${f.games} games, ${pct(f.score)} · peers: ${figure(f.peers)}${f.alternative ? ` · their best: ${f.alternative.san} ${pct(f.alternative.score)}` : ''}${f.pointsAtStake === null ? '' : ` · ${f.pointsAtStake} pts at stake`}`,
            ),
          );
        }),
      ),
    );
  } else if (view.status.cached) box.append(h('p', {}, 'No finding: your moves score within 5 points of the peers’ best and none is rare at your level.'));
  return box;
}

import { api } from '../api.js';
import { clear, dataView, h, table } from '../dom.js';
import { when } from '../format.js';

// Preparation (issue 29): scout a public player, and check the owner's games against a repertoire.
// A client of /api/v1/prep/… like every other page is of the REST and settings APIs; every value from
// a source (usernames, moves) goes in as text through h().

const POLL_MS = 1000;
const failure = (err: unknown) => h('p', { class: 'error', role: 'alert' }, (err as Error).message);
const playerPath = (provider: string, username: string) => `/api/v1/prep/players/${encodeURIComponent(provider)}/${encodeURIComponent(username)}`;

interface Scout {
  provider: string;
  username: string;
  state: string;
  message: string | null;
  fetchedAt: string | null;
  games: number;
  progress: { phase: string; fetched: number } | null;
}

function scoutLine(s: Scout): string {
  const where = s.provider === 'siteB' ? 'lichess' : 'chess.com';
  if (s.state === 'queued' || s.state === 'fetching') return `${s.username} (${where}): ${s.state}${s.progress ? `, ${s.progress.phase}, ${s.progress.fetched} read` : ''}…`;
  if (s.state === 'error') return `${s.username} (${where}): ${s.message ?? 'failed'}`;
  return `${s.username} (${where}): ${s.games} games, fetched ${when(s.fetchedAt)}`;
}

/** The tree explorer of one scouted player: a colour, the moves so far, their next moves as buttons. */
function treeView(provider: string, username: string): HTMLElement {
  const colour = h('select', { 'aria-label': 'their colour' }, h('option', { value: 'white' }, 'as White'), h('option', { value: 'black' }, 'as Black'));
  const out = h('div', { 'data-testid': 'scout-tree' });
  let moves: string[] = [];
  const load = async () => {
    clear(out);
    try {
      const t = await api(`${playerPath(provider, username)}/openings/${colour.value}`, { query: { moves: moves.join(' ') } });
      const back = h('button', { type: 'button', disabled: moves.length === 0, onclick: () => ((moves = moves.slice(0, -1)), void load()) }, 'Back');
      out.append(
        h('p', {}, `After ${moves.length ? moves.join(' ') : 'the start'}: ${t.games} games, their score ${t.score ?? '—'}% `, back),
        table(
          ['Move', 'Games', 'Share %', 'Score %', 'W/D/L'],
          t.nextMoves.map((m: { san: string; games: number; share: number; score: number; win: number; draw: number; loss: number }) => [
            h('button', { type: 'button', class: 'link', 'data-testid': 'tree-move', onclick: () => ((moves = [...moves, m.san]), void load()) }, m.san),
            m.games,
            m.share,
            m.score,
            `${m.win}/${m.draw}/${m.loss}`,
          ]),
        ),
      );
    } catch (err) {
      out.append(failure(err));
    }
  };
  colour.addEventListener('change', () => ((moves = []), void load()));
  void load();
  return h('section', {}, h('h3', {}, 'Their opening tree'), colour, out);
}

async function showPlayer(out: HTMLElement, provider: string, username: string, isCurrent: () => boolean): Promise<void> {
  clear(out);
  out.append(h('p', { class: 'muted' }, 'Loading…'));
  try {
    let report = await api(playerPath(provider, username));
    while (report.scout.state === 'queued' || report.scout.state === 'fetching') {
      clear(out);
      out.append(h('p', { class: 'muted', 'data-testid': 'scout-progress' }, scoutLine(report.scout)));
      await new Promise((r) => setTimeout(r, POLL_MS));
      if (!isCurrent()) return;
      report = await api(playerPath(provider, username));
    }
    clear(out);
    out.append(
      h('h2', {}, scoutLine(report.scout)),
      h('h3', {}, 'Results'),
      dataView({ byColour: report.byColour, timeClasses: report.timeClasses, recentForm: report.recentForm }),
      h('h3', {}, 'Rating'),
      dataView(report.ratingTrend.map((r: { timeClass: string; games: number; first: { rating: number }; last: { rating: number }; change: number }) => ({ timeClass: r.timeClass, games: r.games, from: r.first.rating, to: r.last.rating, change: r.change }))),
      h('h3', {}, 'Where they score worst'),
      dataView(report.worstLines),
      h('h3', {}, 'Where my games meet theirs'),
      dataView({
        'they have White': report.meetingPoints.white.map((m: { lineMoves: string; owner: unknown; them: unknown }) => ({ line: m.lineMoves, me: m.owner, them: m.them })),
        'they have Black': report.meetingPoints.black.map((m: { lineMoves: string; owner: unknown; them: unknown }) => ({ line: m.lineMoves, me: m.owner, them: m.them })),
      }),
      treeView(report.scout.provider, report.scout.username),
    );
  } catch (err) {
    clear(out);
    out.append(failure(err));
  }
}

function repertoireSection(): HTMLElement {
  const colour = h('select', { 'aria-label': 'repertoire colour' }, h('option', { value: 'white' }, 'White'), h('option', { value: 'black' }, 'Black'));
  const pgn = h('textarea', { rows: 6, cols: 60, 'aria-label': 'repertoire PGN', placeholder: '1. e4 e5 (1... c5 2. Nf3) 2. Nf3 Nc6 3. Bb5 *' });
  const out = h('div', { 'data-testid': 'repertoire-result' });
  const deviations = async () => {
    clear(out);
    try {
      const d = await api(`/api/v1/prep/repertoire/${colour.value}/deviations`);
      out.append(
        dataView({ games: d.games, inRepertoire: d.inRepertoire, repertoireEnded: d.repertoireEnded, ownerDeviations: d.ownerDeviations, opponentDeviations: d.opponentDeviations }),
        h('h3', {}, 'Lines most often left'),
        dataView(d.linesMostOftenLeft),
        h('h3', {}, 'My own deviations, worst first'),
        dataView(d.ownDeviations),
        h('h3', {}, 'Opponents’ moves without an answer'),
        dataView(d.opponentsUnanswered),
      );
    } catch (err) {
      out.append(failure(err));
    }
  };
  const form = h('form', { class: 'filters' }, h('label', {}, 'Colour', colour), h('label', {}, 'PGN with variations', pgn), h('button', { type: 'submit' }, 'Save repertoire'), h('button', { type: 'button', onclick: () => void deviations() }, 'Check my games'));
  form.addEventListener('submit', (e) => {
    e.preventDefault();
    void api(`/api/v1/prep/repertoire/${colour.value}`, { method: 'PUT', body: { pgn: pgn.value } }).then(deviations, (err) => {
      clear(out);
      out.append(failure(err));
    });
  });
  return h('section', {}, h('h2', {}, 'My repertoire against my games'), form, out);
}

/** The Prep page: scout a lichess or chess.com player, the players scouted so far, and the repertoire check. */
export async function prepPage(main: HTMLElement): Promise<void> {
  let shown = 0;
  const provider = h('select', { name: 'provider', 'aria-label': 'site' }, h('option', { value: 'siteB' }, 'lichess'), h('option', { value: 'siteA' }, 'chess.com'));
  const username = h('input', { name: 'username', required: true, pattern: '[A-Za-z0-9][A-Za-z0-9_\\-]{1,29}', 'aria-label': 'username', placeholder: 'their username', 'data-testid': 'scout-username' });
  const out = h('div', { class: 'result', 'data-testid': 'scout-result' });
  const open = (p: string, u: string) => {
    const mine = ++shown;
    void showPlayer(out, p, u, () => mine === shown && out.isConnected);
  };
  const form = h('form', { class: 'filters' }, h('label', {}, 'Site', provider), h('label', {}, 'Username', username), h('button', { type: 'submit', 'data-testid': 'scout-submit' }, 'Scout'));
  form.addEventListener('submit', (e) => {
    e.preventDefault();
    const u = username.value.trim();
    if (!u) return;
    void api('/api/v1/prep/scouts', { method: 'POST', body: { provider: provider.value, username: u } }).then(
      (s: Scout) => open(s.provider, s.username),
      (err) => {
        clear(out);
        out.append(failure(err));
      },
    );
  });
  const { scouts } = await api<{ scouts: Scout[] }>('/api/v1/prep/scouts');
  const list = scouts.length
    ? h('ul', {}, ...scouts.map((s) => h('li', {}, h('button', { type: 'button', class: 'link', onclick: () => open(s.provider, s.username) }, scoutLine(s)))))
    : h('p', { class: 'muted', 'data-testid': 'no-scouts' }, 'No player scouted yet.');
  main.append(h('h1', {}, 'Prep'), h('section', {}, h('h2', {}, 'Scout a player'), form, list, out), repertoireSection());
}

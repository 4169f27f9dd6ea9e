import { api } from '../api.js';
import { clear, h } from '../dom.js';
import { showPlayer, scoutSummary, siteName, type Scout } from './prep/player.js';
import { repertoireSection } from './prep/repertoire.js';

// Preparation (issues 29 and 39): scout a public player and read them as a player's page; the
// owner's repertoire as lines on a board, with the games that left it.

/** The Prep page: scout a lichess or chess.com player, the players scouted so far, and the repertoire. */
export async function prepPage(main: HTMLElement): Promise<void> {
  let shown = 0;
  const provider = h('select', { name: 'provider', 'aria-label': 'site' }, h('option', { value: 'siteB' }, 'lichess'), h('option', { value: 'siteA' }, 'chess.com'));
  const username = h('input', { name: 'username', required: true, pattern: '[A-Za-z0-9][A-Za-z0-9_\\-]{1,29}', 'aria-label': 'username', placeholder: 'their username', 'data-testid': 'scout-username' });
  const out = h('div', { class: 'result', 'data-testid': 'scout-result' });
  const list = h('div', { class: 'scouts' });
  const open = (p: string, u: string) => {
    const mine = ++shown;
    history.replaceState(null, '', `/prep?${new URLSearchParams({ player: `${p}/${u}` })}`);
    void showPlayer(out, p, u, () => mine === shown && out.isConnected).then(() => void drawList());
  };
  const drawList = async () => {
    const { scouts } = await api<{ scouts: Scout[] }>('/api/v1/prep/scouts');
    clear(list);
    list.append(
      scouts.length
        ? h('ul', { class: 'scout-list' }, ...scouts.map((s) => h('li', {}, h('button', { type: 'button', class: 'link', 'data-testid': 'scout-open', onclick: () => open(s.provider, s.username) }, `${s.username} (${siteName(s.provider)})`), h('span', { class: 'muted' }, ` ${scoutSummary(s)}`))))
        : h('p', { class: 'muted', 'data-testid': 'no-scouts' }, 'No player scouted yet: type an opponent’s lichess or chess.com username above to read their openings, form and results.'),
    );
    return scouts;
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
        out.append(h('p', { class: 'error', role: 'alert' }, (err as Error).message));
      },
    );
  });
  const scouts = await drawList();
  main.append(h('h1', {}, 'Prep'), h('section', {}, h('h2', {}, 'Scout a player'), form, list), out, repertoireSection());
  // The player in the address, else the first scouted with games to read (on a fresh demo: the made-up one), else the
  // first not failed: a scout never fetched (its fetch interrupted, issue 44 item 7) would open on an empty page.
  const [p, u] = (new URLSearchParams(location.search).get('player') ?? '').split('/');
  const first = p && u ? { provider: p, username: u } : (scouts.find((s) => s.games > 0) ?? scouts.find((s) => s.state !== 'error'));
  if (first) open(first.provider, first.username);
}

import { api } from '../api.js';
import { clear, dataView, h } from '../dom.js';
import { count, num, rating, signed } from '../format.js';

async function show(out: HTMLElement, load: () => Promise<unknown>, render: (data: any) => Node = dataView): Promise<void> {
  clear(out);
  out.append(h('p', { class: 'muted' }, 'Loading…'));
  try {
    const data = await load();
    clear(out);
    out.append(render(data));
  } catch (err) {
    clear(out);
    out.append(h('p', { class: 'error', role: 'alert' }, (err as Error).message));
  }
}

const RESULT_WORDS: Record<string, string> = { win: 'won', draw: 'drew', loss: 'lost' };
const sentence = (t: string) => (/[.!?]$/.test(t.trim()) ? t.trim() : `${t.trim()}.`);

/** The ECF calculation as a result card: the new rating, the change, K in words, each game, each caveat a sentence. */
export function ecfCard(r: any): HTMLElement {
  const kWords = r.monthlyCapApplied
    ? `K is ${num(r.k)}: the base ${r.baseK} is capped at 700 ÷ ${count(r.gamesInMonth, 'game')} this month.`
    : `K is ${num(r.k)}${r.isJunior ? ', the junior K (under 18, in a month that gains)' : ', the adult K'}.`;
  return h(
    'div',
    { class: 'card ecf-card', 'data-testid': 'ecf-card' },
    h('p', { class: 'big' }, h('strong', {}, rating(r.newRating)), ' ', h('span', { class: r.change >= 0 ? 'gain' : 'drop' }, `(${signed(r.change, 1)})`)),
    h('p', {}, `From ${rating(r.currentRating)}: you scored ${num(r.score)} against an expected ${num(r.expectedScore, 2)} in ${count(r.games.length, 'game')}. ${kWords}`),
    h(
      'table',
      { class: 'compact' },
      h('thead', {}, h('tr', {}, ...['Opponent', 'Result', 'Expected', 'Change'].map((t) => h('th', {}, t)))),
      h('tbody', {}, ...r.games.map((g: any) => h('tr', {}, h('td', { class: 'num' }, rating(g.opponentRating)), h('td', {}, RESULT_WORDS[g.result] ?? g.result), h('td', { class: 'num' }, num(g.expectedScore, 2)), h('td', { class: 'num' }, signed(g.contribution, 1))))),
    ),
    h('ul', { class: 'caveats' }, ...r.caveats.map((c: string) => h('li', { class: 'muted' }, sentence(c)))),
  );
}

/** A chess-results tournament (state, round-1 and next-round estimates with a what-if table) and the ECF calculator. */
export function tournamentsPage(main: HTMLElement): void {
  const tnr = h('input', { name: 'tnr', inputmode: 'numeric', required: true, placeholder: 'e.g. 1184567', 'aria-label': 'tournament number' });
  const target = h('input', { name: 'target', placeholder: 'player name (optional)', 'aria-label': 'player name' });
  const out = h('div', { class: 'result', 'data-testid': 'tournament-result' });
  const run = (what: 'state' | 'round1' | 'pairings') => (e: Event) => {
    e.preventDefault();
    if (!tnr.value.trim()) return;
    const path = `/api/v1/tournaments/${encodeURIComponent(tnr.value.trim())}/${what}`;
    void show(out, () => api(path, { query: what === 'state' ? {} : { target: target.value.trim() || undefined } }));
  };
  const tForm = h(
    'form',
    { class: 'filters' },
    h('label', {}, 'Tournament number', tnr),
    h('label', {}, 'Player', target),
    h('button', { type: 'submit' }, 'State'),
    h('button', { type: 'button', onclick: run('round1') }, 'Round 1 estimate'),
    h('button', { type: 'button', onclick: run('pairings') }, 'Next round estimate'),
  );
  tForm.addEventListener('submit', run('state'));

  const current = h('input', { name: 'currentRating', type: 'number', min: 0, max: 3500, required: true, 'aria-label': 'current ECF rating' });
  const games = h('input', { name: 'games', required: true, size: 40, placeholder: '1850 w, 2010 d, 1700 loss', 'aria-label': 'games' });
  const age = h('input', { name: 'age', type: 'number', min: 0, max: 120, placeholder: 'adult', 'aria-label': 'age' });
  const calcOut = h('div', { class: 'result', 'data-testid': 'ecf-result' });
  const calc = h('form', { class: 'filters' }, h('label', {}, 'Current ECF rating', current), h('label', {}, 'Games (opponent rating and result)', games), h('label', {}, 'Age (under 18 only)', age), h('button', { type: 'submit', 'data-testid': 'ecf-calculate' }, 'Calculate'));
  calc.addEventListener('submit', (e) => {
    e.preventDefault();
    void show(calcOut, () => api('/api/v1/fed/rating-change', { query: { currentRating: current.value, games: games.value, age: age.value || undefined } }), ecfCard);
  });

  main.append(
    h('h1', {}, 'Tournaments'),
    h('section', {}, h('h2', {}, 'chess-results.com tournament'), tForm, out),
    h('section', {}, h('h2', {}, 'ECF rating calculator'), calc, calcOut),
  );
}

import { api, ApiFailure } from '../../api.js';
import { clear, h, link, moveLine, table } from '../../dom.js';
import { colourName, count, day, movePairs, resultName } from '../../format.js';
import { repertoireLines } from '../../lines.js';
import { replay } from '../../positions.js';
import { viewer } from '../../viewer.js';

type Colour = 'white' | 'black';

/** The games that left the repertoire: where (the first move out of it), whose move, the result. */
async function leftGames(colour: Colour): Promise<HTMLElement> {
  const d = await api(`/api/v1/prep/repertoire/${colour}/deviations`);
  const left = d.rows.filter((r: any) => r.status === 'deviation');
  // Every figure here counts the same games: the summary's, all of them (the API's rows are only the newest 100).
  const leftAll = d.ownerDeviations + d.opponentDeviations;
  const summary = h(
    'p',
    { 'data-testid': 'repertoire-summary' },
    d.games
      ? `Of your ${d.capped ? `newest ${count(d.games, 'game')}` : count(d.games, 'game')} as ${colourName(colour)}: ${d.inRepertoire} stayed in it to the end, ${d.repertoireEnded} reached the end of a line, and ${leftAll} left it (you left it in ${d.ownerDeviations}, your opponents in ${d.opponentDeviations}).`
      : `None of your games as ${colourName(colour)} has moves to check yet.`,
  );
  if (!left.length) return h('div', { 'data-testid': 'repertoire-left' }, summary);
  return h(
    'div',
    { 'data-testid': 'repertoire-left' },
    summary,
    table(
      ['Date', 'Opponent', 'Out of book', 'Who', 'Book move', 'Result'],
      left.slice(0, 15).map((r: any) => [
        link(`/games/${encodeURIComponent(r.gameId)}`, day(r.playedAt)),
        r.opponent,
        movePairs([r.deviation.san], r.deviation.ply - 1)[0],
        r.deviation.by === 'owner' ? 'you' : 'opponent',
        r.deviation.prepared.length ? r.deviation.prepared.join(', ') : '—',
        resultName(r.result),
      ]),
    ),
    leftAll > Math.min(15, left.length) ? h('p', { class: 'muted', 'data-testid': 'repertoire-left-shown' }, `The newest ${Math.min(15, left.length)} of the ${leftAll} games that left it.`) : null,
  );
}

/** The editor: the lines one a row as move pairs; saving declares the repertoire again. */
function editor(colour: Colour, lines: string[][], open: boolean, onSaved: () => void): HTMLElement {
  const area = h('textarea', { rows: Math.max(4, Math.min(12, lines.length + 1)), 'aria-label': `${colour} repertoire lines`, 'data-testid': 'repertoire-text', placeholder: colour === 'white' ? '1. e4 e5 2. Nf3 Nc6 3. Bb5\n1. e4 c5 2. Nf3 d6 3. d4' : '1. e4 e5 2. Nf3 Nc6\n1. d4 Nf6 2. c4 e6' });
  area.value = lines.map((l) => movePairs(l).join(' ')).join('\n');
  const status = h('p', { class: 'muted', 'aria-live': 'polite' });
  const form = h('form', {}, h('p', { class: 'muted' }, 'One line a row, from move 1; a move shared by several lines is one move of the repertoire.'), area, h('div', { class: 'actions' }, h('button', { type: 'submit', 'data-testid': 'repertoire-save' }, 'Save lines')), status);
  form.addEventListener('submit', (e) => {
    e.preventDefault();
    const rows = area.value.split('\n').map((r) => r.trim()).filter(Boolean);
    if (!rows.length) {
      status.textContent = 'Type at least one line.';
      return;
    }
    status.textContent = 'Saving…';
    api(`/api/v1/prep/repertoire/${colour}`, { method: 'PUT', body: { lines: rows } }).then(onSaved, (err) => {
      status.className = 'error';
      status.textContent = (err as Error).message;
    });
  });
  return h('details', { class: 'editor', open }, h('summary', {}, lines.length ? 'Edit these lines' : 'Type your lines'), form);
}

/** The owner's repertoire of each colour as lines on a board, editable, with the games that left it. */
export function repertoireSection(): HTMLElement {
  const body = h('div', { 'data-testid': 'repertoire' });
  const tabs = (['white', 'black'] as const).map((c) => h('button', { type: 'button', class: 'tab', 'data-colour': c, 'data-testid': `repertoire-${c}`, onclick: () => void show(c) }, `As ${colourName(c)}`));
  async function show(colour: Colour): Promise<void> {
    for (const b of tabs) b.classList.toggle('active', b.getAttribute('data-colour') === colour);
    clear(body);
    body.append(h('p', { class: 'muted' }, 'Loading…'));
    let rep: any = null;
    try {
      rep = await api(`/api/v1/prep/repertoire/${colour}`);
    } catch (err) {
      if (!(err instanceof ApiFailure && err.status === 404)) {
        clear(body);
        body.append(h('p', { class: 'error', role: 'alert' }, (err as Error).message));
        return;
      }
    }
    clear(body);
    const name = colourName(colour);
    if (!rep) {
      body.append(h('p', {}, `No repertoire as ${name} yet. Type the lines you play below and save: your games are then checked against it, and the first move out of book is shown for each.`), editor(colour, [], true, () => void show(colour)));
      return;
    }
    const lines = repertoireLines(rep.source, rep.pgn);
    const boardSlot = h('div', { class: 'rep-board' });
    const list = h('ol', { class: 'rep-lines', 'data-testid': 'repertoire-lines' });
    const pick = (i: number) => {
      const v = viewer(replay(lines[i]), { orientation: colour });
      clear(boardSlot);
      boardSlot.append(v.boardColumn);
      v.go(lines[i].length);
      for (const [j, li] of [...list.children].entries()) li.classList.toggle('current', j === i);
    };
    list.append(...lines.map((l, i) => h('li', {}, h('button', { type: 'button', class: 'link line-link', 'data-testid': 'repertoire-line', onclick: () => pick(i) }, moveLine(l)))));
    body.append(
      h('p', { class: 'muted' }, `${count(rep.lines, 'line')}, ${count(rep.positions, 'position')}, saved ${day(rep.updatedAt)}`, rep.source === 'demo' ? h('span', { class: 'tag' }, 'demo') : null),
      rep.source === 'demo' ? h('p', { class: 'muted' }, 'Made up for the demo: save your own lines to replace it.') : '',
      h('div', { class: 'rep-body' }, boardSlot, h('div', {}, list)),
      editor(colour, lines, false, () => void show(colour)),
      h('h3', {}, 'Games that left it'),
      await leftGames(colour).catch((err) => h('p', { class: 'error' }, (err as Error).message)),
    );
    if (lines.length) pick(0);
  }
  void show('white');
  return h('section', { class: 'repertoire' }, h('h2', {}, 'Your repertoire'), h('div', { class: 'tabs' }, ...tabs), body);
}

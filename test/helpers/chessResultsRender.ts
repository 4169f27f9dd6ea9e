import type { RoundEntry, TournamentState } from '../../src/chess/pairing/index.js';
import { page } from '../sources/chessresults/pages.js';
import type { Pages } from './chessResultsFixture.js';

/**
 * A reference pairing case (its TRF, parsed) written as the chess-results pages an estimate reads, in the
 * site's layout: the saved Jeddah pages are the templates (page frame, navigation row, CRs1 tables, header
 * labels, cell grammar of CHESS-RESULTS.md A.3), with their event name, round navigation and data table
 * replaced by the case's. The round to pair gets the page the site serves before pairing it: a table of only
 * its `not paired` rows (½ for a requested bye, 0 for an absence), as on the British Championship's saved
 * round 8 page; with nobody absent it is the 404 the site gives for a round it does not have. The `not
 * paired` list (art=40) marks every bye, absence and lost forfeit of the rounds played and the round to pair's
 * absences, as the Jeddah list saved during round 2 does.
 */
export interface Absentee {
  player: number;
  kind: 'H' | 'Z';
}

const esc = (s: string) => s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
const half = (x: number) => (x % 1 === 0.5 ? `${x === 0.5 ? '' : Math.floor(x)}&frac12;` : String(x));
const link = (tnr: string, rank: number, name: string) =>
  `<a href="https://chess-results.com/tnr${tnr}.aspx?lan=1&amp;art=9&amp;fed=ENG&amp;snr=${rank}">${esc(name)}</a>`;

/** The first CRs1 table of a template, replaced. */
function withTable(html: string, table: string): string {
  const i = html.indexOf('<table class="CRs1"');
  const j = html.indexOf('</table>', i) + '</table>'.length;
  return html.slice(0, i) + table + html.slice(j);
}

function frame(html: string, name: string, roundsPaired: number, total: number, tnr: string): string {
  const nav = Array.from({ length: roundsPaired }, (_, k) => {
    const label = k + 1 === roundsPaired ? `Rd.${k + 1}/${total}` : `Rd.${k + 1}`;
    return `<a href="https://chess-results.com/tnr${tnr}.aspx?lan=1&amp;art=2&amp;rd=${k + 1}">${label}</a>`;
  }).join(', ');
  return html
    .replace(/<h2>[^<]*<\/h2>/, `<h2>${esc(name)}</h2>`)
    .replace(/(Board Pairings<\/td>\s*<td[^>]*>)[\s\S]*?(<\/td>)/, `$1${nav}$2`)
    .replace(/tnr1473782/g, `tnr${tnr}`);
}

const row = (i: number, cells: string[]) => `<tr class="CRg${(i % 2) + 1}">${cells.join('')}</tr>\n`;
const td = (cls: string, x: string | number) => `<td class="${cls}">${x}</td>`;

function startingRank(s: TournamentState, tnr: string): string {
  const head = '<tr class="CRg1b"><th class="CRc">No.</th><th class="CR"></th><th class="CR">Name</th><th class="CRr">FideID</th><th class="CR">FED</th><th class="CRr">Rtg</th></tr>\n';
  const rows = s.players.map((p, i) => row(i, [td('CRc', p.startingRank), td('CR', ''), td('CR', link(tnr, p.startingRank, p.name)), '<td></td>', td('CR', 'ENG'), td('CRr', p.rating)]));
  return `<table class="CRs1" border="0" cellpadding="1" cellspacing="1">\n${head}${rows.join('')}</table>`;
}

const CELL_RESULT = { win: '1', draw: '½', loss: '0', forfeitWin: '+', forfeitLoss: '-' } as const;
const entryPoints = (e: RoundEntry) =>
  e.kind === 'pab' ? 1 : e.kind === 'halfBye' ? 0.5 : e.kind === 'absent' ? 0 : e.result === 'win' || e.result === 'forfeitWin' ? 1 : e.result === 'draw' ? 0.5 : 0;

function crossCell(e: RoundEntry): string {
  if (e.kind === 'pab') return '-1';
  if (e.kind === 'halfBye') return '-½';
  if (e.kind === 'absent') return '-0';
  return `${String(e.opponent).padStart(3)}${e.colour === 'white' ? 'w' : 'b'}${CELL_RESULT[e.result]}`;
}

function crosstable(s: TournamentState): string {
  const rounds = Array.from({ length: s.roundsPlayed }, (_, k) => `<td class="CRc">${k + 1}.Rd</td>`).join('');
  const head = `<tr class="CRg1b"><th class="CRc">No.</th><th class="CR"></th><th class="CR">Name</th><th class="CRr">Rtg</th><th class="CR">FED</th>${rounds}<th class="CRc">Pts.</th><th class="CRc">Rk.</th></tr>\n`;
  const rows = s.players.map((p, i) => {
    const pts = p.history.reduce((a, e) => a + entryPoints(e), 0);
    return row(i, [td('CRc', p.startingRank), td('CR', ''), td('CR', esc(p.name)), td('CRr', p.rating), td('CR', 'ENG'), ...p.history.map((e) => td('CRc', crossCell(e).replace('½', '&frac12;'))), td('CRc', half(pts)), td('CRc', i + 1)]);
  });
  return `<table class="CRs1" border="0" cellpadding="1" cellspacing="1">\n${head}${rows.join('')}</table>`;
}

const PAIRING_HEAD =
  '<tr class="CRg1b"><th class="CRc">Bo.</th><th class="CRc">No.</th><th class="CR"></th><td class="CR">White</td><th class="CRc">Rtg</th><th class="CRc">Pts.</th> <th class="CRc">Result</th><th class="CRc">Pts.</th> <th class="CR"></th><td class="CR">Black</td><th class="CRc">Rtg</th><th class="CRc">No.</th></tr>\n';
const RESULT_CELL = { win: '1 - 0', draw: '&frac12; - &frac12;', loss: '0 - 1', forfeitWin: '+ - -' } as const;

function pairingTable(s: TournamentState, tnr: string, round: number, absentees: Absentee[]): string {
  const k = round - 1;
  const before = new Map(s.players.map((p) => [p.startingRank, p.history.slice(0, k).reduce((a, e) => a + entryPoints(e), 0)]));
  const byRank = new Map(s.players.map((p) => [p.startingRank, p]));
  const side = (rank: number) => {
    const p = byRank.get(rank)!;
    return [td('CRc', rank), td('CR', ''), td('CR', link(tnr, rank, p.name)), td('CRc', p.rating), td('CRc', half(before.get(rank)!))];
  };
  const rows: string[][] = [];
  if (k < s.roundsPlayed) {
    // Games, White first, in the order of the higher score then the higher rank (the site's board order is
    // the pairing program's; the estimate reads pairs and results, not boards, from a paired round).
    const games = s.players.flatMap((p) => {
      const e = p.history[k];
      return e.kind === 'game' && e.colour === 'white' ? [{ w: p.startingRank, b: e.opponent, e }] : [];
    });
    games.sort((x, y) => Math.max(before.get(y.w)!, before.get(y.b)!) - Math.max(before.get(x.w)!, before.get(x.b)!) || Math.min(x.w, x.b) - Math.min(y.w, y.b));
    for (const g of games) {
      const black = byRank.get(g.b)!.history[k];
      const res = g.e.kind === 'game' && g.e.result === 'forfeitLoss' ? (black.kind === 'game' && black.result === 'forfeitWin' ? '- - +' : '- - -') : RESULT_CELL[(g.e as { result: keyof typeof RESULT_CELL }).result];
      const [bNo, bTitle, bName, bRtg, bPts] = side(g.b);
      rows.push([...side(g.w), td('CRc', res), bPts, bTitle, bName, bRtg, bNo]);
    }
    for (const p of s.players) {
      const e = p.history[k];
      if (e.kind === 'pab') rows.push([...side(p.startingRank), td('CRc', '1'), td('CRc', ''), td('CR', ''), td('CR', 'bye'), td('CRc', '&nbsp;'), td('CRc', '&nbsp;')]);
    }
    for (const p of s.players) {
      const e = p.history[k];
      if (e.kind === 'halfBye' || e.kind === 'absent') rows.push([...side(p.startingRank), td('CRc', e.kind === 'halfBye' ? '&frac12;' : '0'), td('CRc', ''), td('CR', ''), td('CR', 'not paired'), td('CRc', '&nbsp;'), td('CRc', '&nbsp;')]);
    }
  } else {
    for (const a of absentees) {
      rows.push([...side(a.player), td('CRc', a.kind === 'H' ? '&frac12;' : '0'), td('CRc', ''), td('CR', ''), td('CR', 'not paired'), td('CRc', '&nbsp;'), td('CRc', '&nbsp;')]);
    }
  }
  const body = rows.map((r, i) => row(i, [td('CRc', i + 1), ...r])).join('');
  return `<table class="CRs1" border="0" cellpadding="1" cellspacing="1">\n${PAIRING_HEAD}${body}</table>`;
}

function pairingPage(s: TournamentState, name: string, tnr: string, round: number, absentees: Absentee[]): string {
  const html = frame(page('r2_live'), name, s.roundsPlayed, s.totalRounds, tnr).replace(/<h3>Round \d+ on /, `<h3>Round ${round} on `);
  return withTable(html, pairingTable(s, tnr, round, absentees));
}

/** The site's marks (CHESS-RESULTS.md A.3): `*` not paired (½ or 0 alike), `bye` the pairing-allocated bye, `0F` a lost forfeit. */
function mark(e: RoundEntry): string {
  if (e.kind === 'pab') return 'bye';
  if (e.kind === 'halfBye' || e.kind === 'absent') return '*';
  return e.kind === 'game' && e.result === 'forfeitLoss' ? '0F' : '';
}

/** The `not paired` list: every player with a marked round, by name as the site orders it, every round a column. */
function notPairedTable(s: TournamentState, absentees: Absentee[]): string {
  const rounds = Array.from({ length: s.totalRounds }, (_, k) => `<td class="CRc">${k + 1}.Rd</td>`).join('');
  const head = `<tr class="CRg1b"><th class="CRc">SNo</th><th class="CR"></th><th class="CR">Name</th><th class="CRr">Rtg</th><th class="CR">FED</th>${rounds}</tr>\n`;
  const away = new Set(absentees.map((a) => a.player));
  const marked = s.players
    .map((p) => ({ p, marks: Array.from({ length: s.totalRounds }, (_, k) => (k < s.roundsPlayed ? mark(p.history[k]) : k === s.roundsPlayed && away.has(p.startingRank) ? '*' : '')) }))
    .filter((x) => x.marks.some(Boolean))
    .sort((x, y) => x.p.name.localeCompare(y.p.name));
  if (marked.length === 0) return '';
  const rows = marked.map(({ p, marks }, i) => row(i + 1, [td('CRc', p.startingRank), td('CR', ''), td('CR', esc(p.name)), td('CRr', p.rating), td('CR', 'ENG'), ...marks.map((m) => td('CRc', m))]));
  return `<table class="CRs1" border="0" cellpadding="1" cellspacing="1">\n${head}${rows.join('')}</table>`;
}

/**
 * The pages of a case: starting rank, and after round 1 the crosstable and the last round; the round to pair
 * when someone is absent; the `not paired` list (a page without the table when nobody is marked).
 */
export function casePages(s: TournamentState, absentees: Absentee[], tnr: string, name = `Pairing case ${tnr}`): Pages {
  const k = s.roundsPlayed;
  const pages: Pages = { art0: withTable(frame(page('startingrank'), name, k, s.totalRounds, tnr), startingRank(s, tnr)) };
  if (k > 0) {
    pages.art5 = withTable(frame(page('crosstable'), name, k, s.totalRounds, tnr), crosstable(s));
    pages[`art2rd${k}`] = pairingPage(s, name, tnr, k, []);
  }
  if (absentees.length) pages[`art2rd${k + 1}`] = pairingPage(s, name, tnr, k + 1, absentees);
  pages.art40 = withTable(frame(page('notpaired_midevent'), name, k, s.totalRounds, tnr), notPairedTable(s, absentees));
  return pages;
}

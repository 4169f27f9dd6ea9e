/**
 * Strict parsers for the four chess-results views we read (English, all rows):
 * art=0 starting rank, art=5 starting-rank crosstable, art=2 pairings of one round, art=40 not paired.
 * Each either returns a complete object or throws SourceUnreadable naming the view and the failed check
 * (the fail-loud checklist of CHESS-RESULTS.md A.3). Nothing here fetches.
 */
import { SourceUnreadable } from './errors.js';
import { crTables, headings, textOf, type Cell, type Table } from './html.js';

export type View = 'starting rank' | 'crosstable' | 'pairings' | 'not paired';

function fail(view: View, what: string): never {
  throw new SourceUnreadable(`${view}: ${what}`);
}

/** Facts every page carries: the event name, the site's own timestamp and the round navigation. */
export interface PageMeta {
  name: string;
  /** "Last update dd.mm.yyyy hh:mm:ss" as an ISO-like local time (the site states no zone), or null. */
  lastUpdate: string | null;
  /** Rounds with a pairing link in the "Board Pairings" row (the last reads `Rd.k/N`). */
  roundsPaired: number;
  /** N of `Rd.k/N`, or "Number of rounds" from the details block; null when the page shows neither. */
  roundsTotal: number | null;
}

export function parseMeta(html: string, view: View): PageMeta {
  if (/cb_alleDetails/i.test(html)) fail(view, 'the site served its "Show tournament details" gate page instead of the data');
  if (/Show complete list/i.test(html)) fail(view, 'the list is truncated ("Show complete list")');
  const h2 = headings(html, 'h2');
  if (h2.length === 0) fail(view, 'no <h2> heading (event name) found');
  const name = h2[0];
  const upd = /Last update (\d\d)\.(\d\d)\.(\d{4}) (\d\d:\d\d:\d\d)/.exec(html);
  const lastUpdate = upd ? `${upd[3]}-${upd[2]}-${upd[1]}T${upd[4]}` : null;
  let roundsPaired = 0;
  let roundsTotal: number | null = null;
  const nav = /Board Pairings<\/td>\s*<td[^>]*>([\s\S]*?)<\/td>/i.exec(html);
  if (nav) {
    for (const m of textOf(nav[1]).matchAll(/Rd\.(\d+)(?:\/(\d+))?/g)) {
      roundsPaired = Math.max(roundsPaired, Number(m[1]));
      if (m[2]) roundsTotal = Number(m[2]);
    }
  }
  const details = /Number of rounds\s*<\/td>\s*<td[^>]*>\s*(\d+)/i.exec(html);
  if (details) roundsTotal ??= Number(details[1]);
  return { name, lastUpdate, roundsPaired, roundsTotal };
}

/** The one data table of a view, found by its required header labels. */
function tableWith(html: string, view: View, required: string[]): Table {
  const tables = crTables(html);
  if (tables.length === 0) fail(view, 'no CRs1 data table');
  const t = tables.find((tb) => required.every((r) => tb.header.includes(r)));
  if (!t) {
    const seen = tables.map((tb) => tb.header.filter(Boolean).join(' / ')).join(' | ');
    fail(view, `no table with the columns ${required.join(', ')} (saw: ${seen.slice(0, 200)})`);
  }
  if (t.header.includes('Team') || t.header.includes('MP')) fail(view, 'team event (Team/MP columns): only individual events are supported');
  t.rows.forEach((row, i) => {
    if (row.length !== t.header.length) fail(view, `row ${i + 1} has ${row.length} cells, the header ${t.header.length}`);
  });
  return t;
}

function int(view: View, text: string, what: string): number {
  if (!/^\d+$/.test(text)) fail(view, `${what} "${text}" is not a whole number`);
  return Number(text);
}

/** "1", "½", "1½", "1.5", "1,5" → number. */
export function points(view: View, text: string, what: string): number {
  const m = /^(\d*)(½|[.,]5)?$/.exec(text);
  if (!m || (m[1] === '' && !m[2])) fail(view, `${what} "${text}" is not a score`);
  return Number(m[1] || 0) + (m[2] ? 0.5 : 0);
}

const TITLE = /^(?:[A-Z]{1,4})?$/;

/** The title column has an empty header and sits just left of the name (a flag column may precede it). */
function titleAt(view: View, t: Table, nameIdx: number): number | null {
  const i = nameIdx - 1;
  if (i < 0 || t.header[i] !== '') return null;
  if (!t.rows.every((r) => TITLE.test(r[i].text))) return null;
  return i;
}

export interface SeedPlayer {
  startingRank: number;
  name: string;
  title: string | null;
  rating: number;
  federation: string | null;
}

export function parseStartingRank(html: string): SeedPlayer[] {
  const view: View = 'starting rank';
  if (!headings(html, 'h2').includes('Starting rank')) fail(view, 'heading "Starting rank" missing');
  const hasRtg = (h: string[]) => h.includes('Rtg') || h.includes('RtgI');
  const t = tableWith(html, view, ['No.', 'Name']);
  if (!hasRtg(t.header)) fail(view, 'no Rtg (or RtgI) column');
  const iNo = t.header.indexOf('No.');
  const iName = t.header.indexOf('Name');
  const iRtg = t.header.includes('Rtg') ? t.header.indexOf('Rtg') : t.header.indexOf('RtgI');
  const iFed = t.header.indexOf('FED');
  const iTitle = titleAt(view, t, iName);
  if (t.rows.length === 0) fail(view, 'no players');
  const players = t.rows.map((r, i) => ({
    startingRank: int(view, r[iNo].text, `row ${i + 1} No.`),
    name: r[iName].text,
    title: iTitle !== null && r[iTitle].text ? r[iTitle].text : null,
    rating: int(view, r[iRtg].text, `row ${i + 1} rating`),
    federation: iFed >= 0 && r[iFed].text ? r[iFed].text : null,
  }));
  checkNumbering(view, players.map((p) => p.startingRank));
  players.forEach((p, i) => {
    if (!p.name) fail(view, `row ${i + 1} has no name`);
  });
  return players;
}

/** Starting numbers must be exactly 1..N, each once. */
function checkNumbering(view: View, ranks: number[]): void {
  const sorted = [...ranks].sort((a, b) => a - b);
  sorted.forEach((r, i) => {
    if (r !== i + 1) fail(view, `starting numbers are not 1..${ranks.length} (found ${r} where ${i + 1} was expected)`);
  });
}

/** One round of one player, as the crosstable cell says. */
export type CrossCell =
  | { kind: 'game'; opponent: number; colour: 'white' | 'black'; result: 'win' | 'draw' | 'loss' | 'forfeitWin' | 'forfeitLoss' | null }
  | { kind: 'fullBye' | 'halfBye' | 'zeroBye' };

const CELL = /^(\d+)([wb])(1|½|0|\+|-)?$/;
const NO_GAME = /^-(1|½|0)$/;

export function parseCrossCell(view: View, text: string, where: string): CrossCell {
  const g = CELL.exec(text);
  if (g) {
    const result = ({ '1': 'win', '½': 'draw', '0': 'loss', '+': 'forfeitWin', '-': 'forfeitLoss' } as const)[g[3] as '1'] ?? null;
    return { kind: 'game', opponent: Number(g[1]), colour: g[2] === 'w' ? 'white' : 'black', result };
  }
  const b = NO_GAME.exec(text);
  if (b) return { kind: b[1] === '1' ? 'fullBye' : b[1] === '½' ? 'halfBye' : 'zeroBye' };
  return fail(view, `${where}: cell "${text}" matches no known round-cell form`);
}

export function cellPoints(c: CrossCell): number {
  if (c.kind !== 'game') return c.kind === 'fullBye' ? 1 : c.kind === 'halfBye' ? 0.5 : 0;
  return c.result === 'win' || c.result === 'forfeitWin' ? 1 : c.result === 'draw' ? 0.5 : 0;
}

/** The round columns `1.Rd` … `k.Rd` of a table, by header, which must run 1..k in order. */
function roundColumns(view: View, t: Table): Array<{ round: number; i: number }> {
  const cols = t.header.flatMap((h, i) => {
    const m = /^(\d+)\.Rd$/.exec(h);
    return m ? [{ round: Number(m[1]), i }] : [];
  });
  if (cols.length === 0) fail(view, 'no round columns (1.Rd …)');
  cols.forEach((c, k) => {
    if (c.round !== k + 1) fail(view, `round columns out of order at "${t.header[c.i]}"`);
  });
  return cols;
}

export interface CrossRow {
  startingRank: number;
  name: string;
  rating: number | null;
  /** Pts. as printed (equal to the sum of the cells; checked), or that sum when the column is absent. */
  points: number;
  rounds: CrossCell[];
}

export function parseCrosstable(html: string): CrossRow[] {
  const view: View = 'crosstable';
  if (!headings(html, 'h2').includes('Starting rank crosstable')) fail(view, 'heading "Starting rank crosstable" missing');
  const t = tableWith(html, view, ['No.', 'Name']);
  const roundCols = roundColumns(view, t);
  const iNo = t.header.indexOf('No.');
  const iName = t.header.indexOf('Name');
  const iRtg = t.header.indexOf('Rtg');
  const iPts = t.header.indexOf('Pts.');
  const rows = t.rows.map((r, i) => {
    const startingRank = int(view, r[iNo].text, `row ${i + 1} No.`);
    const rounds = roundCols.map((c) => parseCrossCell(view, r[c.i].text, `player ${startingRank} round ${c.round}`));
    const sum = rounds.reduce((s, c) => s + cellPoints(c), 0);
    const printed = iPts >= 0 ? points(view, r[iPts].text, `player ${startingRank} Pts.`) : sum;
    if (printed !== sum) fail(view, `player ${startingRank}: Pts. ${printed} is not the sum of the round cells (${sum})`);
    return {
      startingRank,
      name: r[iName].text,
      rating: iRtg >= 0 ? int(view, r[iRtg].text, `player ${startingRank} rating`) : null,
      points: sum,
      rounds,
    };
  });
  checkNumbering(view, rows.map((r) => r.startingRank));
  // Each game cell must be mirrored by the opponent's: same round, opposite colour.
  const byRank = new Map(rows.map((r) => [r.startingRank, r]));
  for (const r of rows) {
    r.rounds.forEach((c, k) => {
      if (c.kind !== 'game') return;
      const o = byRank.get(c.opponent)?.rounds[k];
      if (!o || o.kind !== 'game' || o.opponent !== r.startingRank || o.colour === c.colour) {
        fail(view, `round ${k + 1}: player ${r.startingRank}'s game against ${c.opponent} is not mirrored by the opponent's row`);
      }
    });
  }
  return rows;
}

export type PairingResult = '1-0' | '0-1' | '½-½' | '+--' | '--+' | '0-0' | '---' | '½-0' | '0-½';

export interface PairingSide {
  startingRank: number;
  name: string;
  rating: number | null;
  /** Points before the round, as printed. */
  points: number | null;
}

export interface PairingBoard {
  board: number;
  white: PairingSide;
  /** null on a bye or "not paired" row. */
  black: PairingSide | null;
  /** null while the game is in play (empty Result cell). */
  result: PairingResult | null;
  /** Bye rows: "bye" (pairing-allocated, points in the Result cell) or "not paired". */
  bye: { kind: 'bye' | 'not paired'; points: number | null } | null;
}

export interface RoundPairings {
  round: number;
  boards: PairingBoard[];
}

/** null when the round is not paired yet (a normal page without any CRs1 table). */
export function parsePairings(html: string, round: number): RoundPairings | null {
  const view: View = 'pairings';
  if (!headings(html, 'h2').includes('Pairings/Results')) fail(view, 'heading "Pairings/Results" missing');
  if (crTables(html).length === 0) return null;
  const h3 = headings(html, 'h3').filter((h) => /^Round \d+ on/.test(h));
  if (h3.length > 1) fail(view, 'several rounds on one page (a round robin): only Swiss events are supported');
  const roundNo = h3.length === 1 ? Number(/^Round (\d+)/.exec(h3[0])![1]) : null;
  if (roundNo !== round) fail(view, `asked for round ${round}, the page shows ${roundNo === null ? 'no round heading' : `round ${roundNo}`}`);
  const t = tableWith(html, view, ['Bo.', 'White', 'Result', 'Black']);
  const h = t.header;
  const iWhite = h.indexOf('White');
  const iResult = h.indexOf('Result');
  const iBlack = h.indexOf('Black');
  if (!(iWhite < iResult && iResult < iBlack)) fail(view, 'columns White, Result, Black are not in that order');
  const find = (label: string, from: number, to: number) => {
    for (let i = from; i < to; i++) if (h[i] === label) return i;
    return -1;
  };
  const cols = {
    board: h.indexOf('Bo.'),
    wNo: find('No.', 0, iWhite),
    wRtg: find('Rtg', iWhite, iResult),
    wPts: find('Pts.', iWhite, iResult),
    bPts: find('Pts.', iResult, iBlack),
    bRtg: find('Rtg', iBlack, h.length),
    bNo: find('No.', iBlack, h.length),
  };
  const rank = (r: Cell[], noIdx: number, nameIdx: number, where: string): number => {
    const fromNo = noIdx >= 0 && r[noIdx].text ? int(view, r[noIdx].text, `${where} No.`) : null;
    const fromLink = r[nameIdx].snr;
    if (fromNo !== null && fromLink !== null && fromNo !== fromLink) fail(view, `${where}: No. ${fromNo} and the player link (snr=${fromLink}) disagree`);
    const n = fromNo ?? fromLink;
    if (n === null) fail(view, `${where}: no starting number (neither a No. column nor a player link)`);
    return n;
  };
  const optInt = (r: Cell[], i: number, where: string) => (i >= 0 && r[i].text !== '' ? int(view, r[i].text, where) : null);
  const optPts = (r: Cell[], i: number, where: string) => (i >= 0 && r[i].text !== '' ? points(view, r[i].text, where) : null);
  const boards = t.rows.map((r, i): PairingBoard => {
    const where = `board row ${i + 1}`;
    const white: PairingSide = {
      startingRank: rank(r, cols.wNo, iWhite, `${where} White`),
      name: r[iWhite].text,
      rating: optInt(r, cols.wRtg, `${where} White rating`),
      points: optPts(r, cols.wPts, `${where} White points`),
    };
    const blackText = r[iBlack].text;
    const board = r[cols.board].text ? int(view, r[cols.board].text, `${where} Bo.`) : i + 1;
    if (/^(bye|not paired)$/i.test(blackText)) {
      const kind = blackText.toLowerCase() === 'bye' ? 'bye' : 'not paired';
      const pts = r[iResult].text ? points(view, r[iResult].text.replace(/\s/g, ''), `${where} bye points`) : null;
      return { board, white, black: null, result: null, bye: { kind, points: pts } };
    }
    const black: PairingSide = {
      startingRank: rank(r, cols.bNo, iBlack, `${where} Black`),
      name: blackText,
      rating: optInt(r, cols.bRtg, `${where} Black rating`),
      points: optPts(r, cols.bPts, `${where} Black points`),
    };
    const res = r[iResult].text.replace(/\s/g, '');
    if (res !== '' && !/^(1-0|0-1|½-½|\+--|--\+|0-0|---|½-0|0-½)$/.test(res)) fail(view, `${where}: result "${r[iResult].text}" is not a known result`);
    return { board, white, black, result: res === '' ? null : (res as PairingResult), bye: null };
  });
  const seen = new Set<number>();
  for (const b of boards) {
    for (const s of [b.white, b.black]) {
      if (!s) continue;
      if (seen.has(s.startingRank)) fail(view, `player ${s.startingRank} appears on two boards`);
      seen.add(s.startingRank);
    }
  }
  return { round, boards };
}

/**
 * The marks of the `not paired` list (art=40), by the site's cell text (CHESS-RESULTS.md A.3 and A.4):
 * `*` a round the player was not paired for, a requested half-point bye and an absence alike (Frome 2026's
 * round 1 prints both the same way); `bye` the pairing-allocated bye; `0F` a forfeit the player lost.
 */
export const NOT_PAIRED_MARKS = { '*': 'notPaired', bye: 'pairingBye', '0F': 'forfeitLoss' } as const;
export type NotPairedMark = (typeof NOT_PAIRED_MARKS)[keyof typeof NOT_PAIRED_MARKS];

export interface NotPairedRow {
  startingRank: number;
  name: string;
  /** By round number: only the rounds the row marks. */
  marks: Map<number, NotPairedMark>;
}

/**
 * The `not paired` list: one row per player with any marked round, rounds by their `k.Rd` header (the page
 * ignores `rd=` and always shows every round, future ones included). A page without the table lists nobody.
 */
export function parseNotPaired(html: string): NotPairedRow[] {
  const view: View = 'not paired';
  if (!headings(html, 'h2').includes('not paired')) fail(view, 'heading "not paired" missing');
  if (crTables(html).length === 0) return [];
  const t = tableWith(html, view, ['SNo', 'Name']);
  const roundCols = roundColumns(view, t);
  const iNo = t.header.indexOf('SNo');
  const iName = t.header.indexOf('Name');
  const rows = t.rows.map((r, i) => {
    const startingRank = int(view, r[iNo].text, `row ${i + 1} SNo`);
    const marks = new Map<number, NotPairedMark>();
    for (const c of roundCols) {
      const text = r[c.i].text;
      if (text === '') continue;
      if (!Object.hasOwn(NOT_PAIRED_MARKS, text)) fail(view, `player ${startingRank} round ${c.round}: mark "${text}" is not one of *, bye, 0F`);
      marks.set(c.round, NOT_PAIRED_MARKS[text as keyof typeof NOT_PAIRED_MARKS]);
    }
    return { startingRank, name: r[iName].text, marks };
  });
  const seen = new Set<number>();
  for (const r of rows) {
    if (seen.has(r.startingRank)) fail(view, `player ${r.startingRank} is listed twice`);
    seen.add(r.startingRank);
  }
  return rows;
}

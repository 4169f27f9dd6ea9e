// Display helpers: names for value sets, dates, evaluations.

export const PROVIDER_NAMES: Record<string, string> = { siteA: 'chess.com', siteB: 'lichess', fed: 'ECF', manual: 'manual', pgn: 'PGN import' };
export const providerName = (p: string) => PROVIDER_NAMES[p] ?? p;

export function day(iso: string | null | undefined): string {
  return iso ? iso.slice(0, 10) : '—';
}

export function when(iso: string | null | undefined): string {
  return iso ? `${iso.slice(0, 10)} ${iso.slice(11, 16)} UTC` : 'never';
}

const MONTHS = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];

/** Day and month of an ISO date, kept on one line: "21 Nov" (a no-break space between). */
export const dayMonth = (iso: string) => `${Number(iso.slice(8, 10))}\u00a0${MONTHS[Number(iso.slice(5, 7)) - 1]}`;

/**
 * A PGN date (PGN standard §8.1.1.3: "YYYY.MM.DD", unknown parts as "??") as the pages write dates:
 * "1858.11.02" → "1858-11-02", "1834.??.??" → "1834", "1834.05.??" → "1834-05", all unknown → ''.
 * An ISO date or time (a played game's) gives its day.
 */
export function pgnDate(d: string | null | undefined): string {
  if (!d) return '';
  const m = /^(\d{4}|\?{4})[.-](\d{2}|\?{2})[.-](\d{2}|\?{2})/.exec(d);
  if (!m) return d;
  const parts = [m[1], m[2], m[3]];
  const known = parts.findIndex((x) => x.includes('?'));
  return (known === -1 ? parts : parts.slice(0, known)).join('-');
}

/**
 * An engine's name for a player: the server's label without the network file ("Stockfish 19 WASM, full build,
 * nn-1a298aa575a0.nnue" → "Stockfish 19 WASM, full build"); the whole label stays available as a tooltip.
 */
export const engineName = (label: string) => label.split(', ').filter((part) => !/^nn-[0-9a-f]+\.nnue$/i.test(part)).join(', ');

/** A connection's status, without saying it twice ("demo: demo data: …" read as a stutter). */
export function connectionStatus(c: { status: string; statusMessage: string | null }): string {
  if (!c.statusMessage) return words(c.status);
  return c.statusMessage.toLowerCase().startsWith(c.status.toLowerCase()) ? c.statusMessage : `${words(c.status)}: ${c.statusMessage}`;
}

export function evalText(e: { type: string; value: number; pawns?: number | null; mateIn?: number | null } | null | undefined): string {
  if (!e) return '—';
  if (e.type === 'mate') return `#${e.value}`;
  const p = e.value / 100;
  return `${p > 0 ? '+' : ''}${p.toFixed(2)}`;
}

/** An evaluation after a move is in the side-to-move frame (after White's move, Black's): turned to White's. */
export const whiteFrame = <E extends { value: number } | null | undefined>(e: E, sign: 1 | -1): E => (e ? { ...e, value: e.value * sign } : e);

/**
 * White's winning chances (0–100) from an evaluation in White's frame: lichess's curve
 * (modules/analyse/src/main/WinPercent.scala: 50 + 50·(2/(1+e^(−0.00368208·cp)) − 1),
 * centipawns clamped to ±1000; a mate is 100 or 0). Drawing only: the server's figures use the same curve.
 */
export function whiteWinChances(e: { type: string; value: number } | null | undefined, whiteFrameSign: 1 | -1): number {
  if (!e) return 50;
  if (e.type === 'mate') return e.value * whiteFrameSign > 0 ? 100 : 0;
  const cp = Math.max(-1000, Math.min(1000, e.value * whiteFrameSign));
  return 50 + 50 * (2 / (1 + Math.exp(-0.00368208 * cp)) - 1);
}

export const CLASS_MARK: Record<string, string> = { brilliant: '!!', great: '!', best: '★', good: '', inaccuracy: '?!', mistake: '?', miss: '×', blunder: '??' };

// ── The shared formatter: every figure and label a page shows goes through these, so no page
// prints a camelCase key, a float of many decimals or a bare true/false (issue 39).

/** A figure for people: at most `digits` decimals (default one), trailing zeros dropped; '—' when missing. */
export function num(n: number | null | undefined, digits = 1): string {
  if (n === null || n === undefined || !Number.isFinite(n)) return '—';
  const f = 10 ** digits;
  const r = Math.round(n * f) / f;
  return String(Object.is(r, -0) ? 0 : r);
}

/** A percentage, from 0–100 (or from a 0–1 share with `share`), one decimal at most. */
export function pct(n: number | null | undefined, share = false): string {
  return n === null || n === undefined || !Number.isFinite(n) ? '—' : `${num(share ? n * 100 : n)}%`;
}

/** A rating: whole. */
export const rating = (n: number | null | undefined) => (n === null || n === undefined ? '—' : String(Math.round(n)));

/** A change with its sign (+12, −3, 0). */
export function signed(n: number | null | undefined, digits = 0): string {
  if (n === null || n === undefined || !Number.isFinite(n)) return '—';
  const t = num(Math.abs(n), digits);
  return t === '0' ? '0' : `${n > 0 ? '+' : '−'}${t}`;
}

export const yesNo = (b: boolean | null | undefined) => (b ? 'yes' : 'no');

/** "3 games", "1 game". */
export const count = (n: number, one: string, many = `${one}s`) => `${n} ${n === 1 ? one : many}`;

const TIME_CLASS_NAMES: Record<string, string> = { ultraBullet: 'ultrabullet', bullet: 'bullet', blitz: 'blitz', rapid: 'rapid', classical: 'classical', daily: 'daily', correspondence: 'correspondence', standard: 'standard (over the board)' };
export const timeClassName = (t: string | null | undefined) => (t ? (TIME_CLASS_NAMES[t] ?? words(t)) : '—');

/** The games list's orders (the API's `sort` values), as a player reads them. */
export const SORT_NAMES = { 'date-desc': 'Newest first', 'date-asc': 'Oldest first', 'accuracy-desc': 'Best accuracy first', 'accuracy-asc': 'Worst accuracy first' } as const;
export const sortName = (key: string) => (SORT_NAMES as Record<string, string>)[key] ?? words(key);

/** A game's result from the owner's side, in words. */
export const resultName = (r: string | null | undefined) => (r ? ({ win: 'won', draw: 'drawn', loss: 'lost' } as Record<string, string>)[r] ?? words(r) : '—');

/** A camelCase or snake_case key as words: "excessErrors" → "excess errors", "hanging_piece" → "hanging piece". */
export function words(key: string): string {
  return key
    .replace(/([a-z0-9])([A-Z])/g, '$1 $2')
    .replace(/[_-]+/g, ' ')
    .toLowerCase()
    .trim();
}

/** A label in words with a capital first letter, for headings and table headers. */
export const label = (key: string) => {
  const w = words(key);
  return w.charAt(0).toUpperCase() + w.slice(1);
};

/** W–D–L on one line (non-breaking dashes: "116–17–93" never wraps). */
export const wdl = (r: { win: number; draw: number; loss: number }) => `${r.win}\u2060–\u2060${r.draw}\u2060–\u2060${r.loss}`;

/** The W–D–L column's header, on one line like its figures. */
export const WDL_HEADER = 'W\u2060–\u2060D\u2060–\u2060L';

/** A side's name: "White", "Black". */
export const colourName = (c: string) => (c === 'white' ? 'White' : 'Black');

/** A move with its number, from the plies before it: "1.e4", "1…e5" (the move a table or list offers next). */
export const numberedMove = (pliesBefore: number, san: string) => `${pliesBefore % 2 === 0 ? `${pliesBefore / 2 + 1}.` : `${Math.ceil(pliesBefore / 2)}…`}${san}`;

/** A move of a line from move 1, compactly: White's with its number ("2.Nf3"), Black's bare ("Nc6"). */
export const lineMove = (i: number, san: string) => (i % 2 === 0 ? numberedMove(i, san) : san);

/** Space-separated SAN from move 1 as numbered move pairs (["1. e4 e5", "2. Nf3"]), from a given ply offset. */
export function movePairs(line: string | readonly string[], startPly = 0): string[] {
  const sans = typeof line === 'string' ? line.split(/\s+/).filter(Boolean) : [...line];
  const pairs: string[] = [];
  sans.forEach((san, i) => {
    const ply = startPly + i;
    if (ply % 2 === 0) pairs.push(`${ply / 2 + 1}. ${san}`);
    else if (i === 0) pairs.push(`${Math.ceil(ply / 2)}… ${san}`);
    else pairs[pairs.length - 1] += ` ${san}`;
  });
  return pairs;
}

/** Any value as a person reads it: numbers rounded, booleans as yes/no, missing as '—'. */
export function plain(v: unknown): string {
  if (v === null || v === undefined) return '—';
  if (typeof v === 'boolean') return yesNo(v);
  if (typeof v === 'number') return Number.isInteger(v) ? String(v) : num(v, 2);
  return String(v);
}

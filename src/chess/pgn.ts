import { createHash } from 'node:crypto';
import { Chess, DEFAULT_POSITION } from 'chess.js';
import { checkFen } from './fen.js';
import { playSan } from './sanReplay.js';

/** Why a PGN was refused; the message is shown to the caller as is. */
export class PgnError extends Error {
  constructor(
    readonly reason: 'empty' | 'multi-game' | 'unparseable' | 'moveless' | 'illegal-move' | 'unsupported' | 'illegal-position' | 'null-move',
    message: string,
  ) {
    super(message);
    this.name = 'PgnError';
  }
}

export interface ParsedPly {
  /** 1-based; ply 1 is the first move of the game. */
  ply: number;
  san: string;
  uci: string;
  fenBefore: string;
  fenAfter: string;
  /** Comment text after the move, without clock/eval commands; null when none. */
  comment: string | null;
  /** `[%clk h:mm:ss]` after the move, in seconds; null when absent. */
  clockSeconds: number | null;
}

export interface ParsedGame {
  headers: Record<string, string>;
  startFen: string;
  plies: ParsedPly[];
  /** Result token from the movetext or the Result header: 1-0, 0-1, 1/2-1/2 or *. */
  result: string;
  /** Comment before the first move (game-level note), or null. */
  preface: string | null;
}

const HEADER_LINE = /^\s*\[(\w+)\s+"((?:[^"\\]|\\.)*)"\s*\]\s*$/;
const RESULT_TOKENS = new Set(['1-0', '0-1', '1/2-1/2', '*']);

/** A tag pair line's name and value, its escapes undone (standard 8.1: \\ and \"); null for any other line. */
export function tagPair(line: string): [name: string, value: string] | null {
  const m = HEADER_LINE.exec(line);
  return m ? [m[1], m[2].replace(/\\(.)/g, '$1')] : null;
}

/**
 * The value of one tag pair of a game's PGN (standard 8.1: `[Name "value"]`, with \\ and \" escaped),
 * read from the tag pair section only, as parsePgn reads it; null when the section has no such tag.
 */
export function pgnTag(text: string, name: string): string | null {
  let value: string | null = null;
  let at = 0;
  while (at < text.length) {
    const end = text.indexOf('\n', at);
    const line = text.slice(at, end < 0 ? text.length : end);
    at = end < 0 ? text.length : end + 1;
    const pair = tagPair(line);
    if (pair) {
      if (pair[0] === name) value = pair[1];
    } else if (line.trim()) break;
  }
  return value;
}

/**
 * Splits a PGN text into the texts of its games (a header block starts a game once movetext was seen).
 * Works line by line, so callers can feed it a stream (see `pgnGameSplitter`).
 */
export function splitPgnGames(text: string): string[] {
  const out: string[] = [];
  const splitter = pgnGameSplitter((g) => out.push(g));
  for (const line of text.split(/\r?\n/)) splitter.line(line);
  splitter.end();
  return out;
}

/** Incremental game splitter: feed lines, receive whole game texts. */
export function pgnGameSplitter(onGame: (text: string) => void) {
  let lines: string[] = [];
  let sawMoves = false;
  let depth = 0; // inside a {comment} spanning lines, a "[" does not start a header
  const flush = () => {
    const text = lines.join('\n').trim();
    if (text) onGame(text);
    lines = [];
    sawMoves = false;
  };
  return {
    line(raw: string) {
      const line = raw.replace(/^\uFEFF/, '');
      // Each line is tested once, and walked for braces only when it has one (every game is split twice: file, then parse).
      const header = depth === 0 && HEADER_LINE.test(line);
      if (header && sawMoves) flush();
      if (depth === 0 && !header && line.trim() && !line.trim().startsWith('%')) sawMoves = true;
      if (line.includes('{') || line.includes('}')) {
        for (const ch of line) {
          if (ch === '{') depth += 1;
          else if (ch === '}' && depth > 0) depth -= 1;
        }
      }
      lines.push(line);
    },
    end: flush,
  };
}

export type Token =
  | { kind: 'move'; text: string }
  | { kind: 'comment'; text: string }
  | { kind: 'result'; text: string }
  | { kind: 'open' }
  | { kind: 'close' };

/** Where in the game, for a message: the text around it and its line in the game's text. */
function nearText(s: string, at: number, firstLine: number): string {
  const line = firstLine + s.slice(0, at).split('\n').length - 1;
  const snippet = s.slice(Math.max(0, at - 12), at + 12).replace(/\s+/g, ' ').trim();
  return `"${snippet}" (line ${line})`;
}

// Sticky (read at lastIndex): matching on `s.slice(i)` copied the rest of the text for every word, quadratic in
// its length (a 495,000-character repertoire tokenized in 730 ms, issue 44).
const NAG = /\$\d+/y;
const WORD = /[^\s{}();]+/y;

export function tokenize(movetext: string, firstLine: number): Token[] {
  return [...pgnTokens(movetext, firstLine)];
}

/** tokenize's tokens one at a time, so a caller working in slices (a repertoire's declaration) reads the text in them too. */
export function* pgnTokens(movetext: string, firstLine: number): Generator<Token, void> {
  const near = (s: string, at: number) => nearText(s, at, firstLine);
  let i = 0;
  const s = movetext;
  while (i < s.length) {
    const ch = s[i];
    if (/\s/.test(ch)) {
      i += 1;
    } else if (ch === '{') {
      // PGN standard 8.2.5: a brace comment runs to the first "}" and does not nest. A "{" inside one is
      // almost always a nesting mistake whose "}" would then close the wrong comment: refuse it by name.
      const end = s.indexOf('}', i + 1);
      if (end < 0) throw new PgnError('unparseable', `unparseable PGN: the { comment opened near ${near(s, i)} is never closed`);
      const inner = s.indexOf('{', i + 1);
      if (inner >= 0 && inner < end) throw new PgnError('unparseable', `unparseable PGN: a { inside a comment near ${near(s, inner)}; PGN comments do not nest`);
      yield { kind: 'comment', text: s.slice(i + 1, end) };
      i = end + 1;
    } else if (ch === '}') {
      throw new PgnError('unparseable', `unparseable PGN: a } near ${near(s, i)} closes no comment`);
    } else if (ch === ';') {
      const end = s.indexOf('\n', i);
      yield { kind: 'comment', text: s.slice(i + 1, end < 0 ? s.length : end) };
      i = end < 0 ? s.length : end + 1;
    } else if (ch === '(') {
      yield { kind: 'open' };
      i += 1;
    } else if (ch === ')') {
      yield { kind: 'close' };
      i += 1;
    } else if (ch === '$') {
      NAG.lastIndex = i;
      const m = NAG.exec(s);
      i += m ? m[0].length : 1;
    } else {
      WORD.lastIndex = i;
      const m = WORD.exec(s)!;
      const word = m[0];
      i += word.length;
      if (RESULT_TOKENS.has(word)) {
        yield { kind: 'result', text: word };
        continue;
      }
      // Strip move numbers ("12." "12..." "12...Nf3") and annotation glyphs.
      const move = word.replace(/^\d+\.+/, '').replace(/[!?]+$/, '');
      if (move === '' || /^\d+$/.test(move)) continue;
      yield { kind: 'move', text: move };
    }
  }
}

const CLOCK = /\[%clk\s+(\d+):(\d{1,2}):(\d{1,2}(?:\.\d+)?)\]/;
const COMMAND = /\[%[^\]]*\]/g;

function readClock(comment: string): number | null {
  const m = CLOCK.exec(comment);
  return m ? Number(m[1]) * 3600 + Number(m[2]) * 60 + Number(m[3]) : null;
}

function cleanComment(comment: string): string | null {
  const text = comment.replace(COMMAND, '').replace(/\s+/g, ' ').trim();
  return text === '' ? null : text;
}

const NULL_MOVES = new Set(['--', 'Z0', '0000', '@@@@']);

/** A mainline ply without its positions (what storing a game needs). */
export type MainlinePly = Omit<ParsedPly, 'fenBefore' | 'fenAfter'>;

/**
 * A game parsed for storing: headers and mainline as parsePgn gives them, with the position after each
 * of the first `fenPlies` plies only (`fensAfter[i]` follows ply i + 1): printing a FEN per ply is a
 * real share of a replay, and storing needs them only to name the opening.
 */
export interface ParsedMainline {
  headers: Record<string, string>;
  startFen: string;
  plies: MainlinePly[];
  result: string;
  preface: string | null;
  fensAfter: string[];
}

/**
 * Parses exactly one game: headers, then the mainline replayed move by move (variations skipped).
 * Throws PgnError naming what is wrong: several games, no moves, an illegal move, bad syntax.
 */
export function parsePgn(text: string, opts: { requireMoves?: boolean } = {}): ParsedGame {
  const g = parseMainline(text, opts, Infinity);
  const fens = [g.startPositionFen, ...g.fensAfter];
  const plies = g.plies.map((p, i) => ({ ply: p.ply, san: p.san, uci: p.uci, fenBefore: fens[i], fenAfter: fens[i + 1], comment: p.comment, clockSeconds: p.clockSeconds }));
  return { headers: g.headers, startFen: g.startFen, plies, result: g.result, preface: g.preface };
}

/**
 * parsePgn for storing a game: the same headers, plies, result and errors, replayed once, with FENs
 * printed only for the first `fenPlies` plies (0 when nothing needs positions).
 */
export function parsePgnMainline(text: string, opts: { requireMoves?: boolean; fenPlies?: number } = {}): ParsedMainline {
  const { startPositionFen: _, ...g } = parseMainline(text, opts, opts.fenPlies ?? 0);
  return g;
}

function parseMainline(text: string, opts: { requireMoves?: boolean }, fenPlies: number): ParsedMainline & { startPositionFen: string } {
  if (!text.trim()) throw new PgnError('empty', 'the PGN is empty');
  const games = splitPgnGames(text);
  if (games.length > 1) throw new PgnError('multi-game', `the PGN holds ${games.length} games; send exactly one`);
  const headers: Record<string, string> = {};
  const movetextLines: string[] = [];
  let inHeaders = true;
  let firstLine = 1; // line of the game text where the movetext starts, for messages
  for (const [n, line] of games[0].split('\n').entries()) {
    const pair = inHeaders ? tagPair(line) : null;
    if (pair) headers[pair[0]] = pair[1];
    else {
      if (inHeaders && line.trim()) {
        inHeaders = false;
        firstLine = n + 1;
      }
      // An escape line ("%…", standard 6) is kept as an empty line so line numbers stay true.
      if (!inHeaders) movetextLines.push(line.trim().startsWith('%') ? '' : line);
    }
  }
  const variant = headers.Variant?.toLowerCase();
  if (variant && !['standard', 'chess', 'from position'].includes(variant)) {
    throw new PgnError('unsupported', `unsupported variant "${headers.Variant}": only standard chess`);
  }
  // Every position must be one chess rules allow before it reaches the engine: a FEN chess.js
  // accepts can still leave the side not to move in check (the engine then searches forever).
  const checked = headers.FEN ? checkFen(headers.FEN) : null;
  if (checked && !checked.ok) throw new PgnError('illegal-position', `the FEN header is not a legal position (${checked.reason}): ${headers.FEN}`);
  const startFen = headers.FEN ?? DEFAULT_POSITION;
  let board: Chess;
  try {
    board = new Chess(startFen);
  } catch {
    throw new PgnError('unparseable', `the FEN header is not a legal position: ${startFen}`);
  }
  const startPositionFen = board.fen();
  const tokens = tokenize(movetextLines.join('\n'), firstLine);
  const plies: MainlinePly[] = [];
  const fensAfter: string[] = [];
  let preface: string | null = null;
  let result = headers.Result ?? '*';
  let depth = 0;
  for (const tok of tokens) {
    if (tok.kind === 'open') depth += 1;
    else if (tok.kind === 'close') {
      if (depth === 0) throw new PgnError('unparseable', 'unparseable PGN: a ) closes no variation');
      depth -= 1;
    } else if (depth > 0) continue;
    else if (tok.kind === 'result') result = tok.text;
    else if (tok.kind === 'comment') {
      const last = plies[plies.length - 1];
      if (!last) {
        preface = [preface, cleanComment(tok.text)].filter(Boolean).join(' ') || null;
        continue;
      }
      const clock = readClock(tok.text);
      if (clock !== null) last.clockSeconds = clock;
      const cleaned = cleanComment(tok.text);
      if (cleaned) last.comment = last.comment ? `${last.comment} ${cleaned}` : cleaned;
    } else if (tok.kind === 'move') {
      if (result !== (headers.Result ?? '*') && plies.length) {
        // A move after a result token: the text is two games glued together.
        throw new PgnError('multi-game', 'moves follow a result token; send exactly one game');
      }
      // A null move ("--", "Z0", "0000") passes the turn without moving: annotators use it in
      // analysis, but it is not a move of a game and no engine position follows from it.
      // Named as a player reads it (issue 45): "18…f6", the move number and side of the position it was played in.
      const named = `${board.moveNumber()}${board.turn() === 'w' ? '.' : '…'}${tok.text}`;
      if (NULL_MOVES.has(tok.text)) throw new PgnError('null-move', `${named} is a null move, which a game cannot contain`);
      const mv = playSan(board, tok.text.replace(/^0-0-0/, 'O-O-O').replace(/^0-0/, 'O-O'));
      if (typeof mv === 'string') throw new PgnError(mv === 'null' ? 'null-move' : 'illegal-move', `${named} is ${mv === 'null' ? 'a null move, which a game cannot contain' : 'not legal in that position'}`);
      plies.push({ ply: plies.length + 1, san: mv.san, uci: mv.uci, comment: null, clockSeconds: null });
      if (plies.length <= fenPlies) fensAfter.push(board.fen());
    }
  }
  if (depth !== 0) throw new PgnError('unparseable', 'unparseable PGN: a ( variation is never closed');
  if ((opts.requireMoves ?? true) && plies.length === 0) throw new PgnError('moveless', 'the PGN has no moves');
  return { headers, startFen, plies, result, preface, fensAfter, startPositionFen };
}

/** Full-move count of a game of `plies` half-moves (a lone White move counts as one). */
export function fullMoves(plies: number): number {
  return Math.ceil(plies / 2);
}

/**
 * Identity of a move sequence: the same moves from the same start give the same key whatever
 * the headers, comments or clocks. Each owner's review of the moves is stored under it.
 */
export function movesKey(startFen: string, uciMoves: readonly string[]): string {
  return createHash('sha256').update(`${startFen}\n${uciMoves.join(' ')}`).digest('hex');
}

export function sha256(text: string): string {
  return createHash('sha256').update(text).digest('hex');
}

/** Replays SAN moves from the start position; null if any is illegal. */
export function replaySan(sanMoves: readonly string[], startFen: string = DEFAULT_POSITION): ParsedPly[] | null {
  const board = new Chess(startFen);
  const plies: ParsedPly[] = [];
  for (const san of sanMoves) {
    const fenBefore = board.fen();
    let mv;
    try {
      mv = board.move(san);
    } catch {
      return null;
    }
    plies.push({ ply: plies.length + 1, san: mv.san, uci: mv.from + mv.to + (mv.promotion ?? ''), fenBefore, fenAfter: board.fen(), comment: null, clockSeconds: null });
  }
  return plies;
}

export { DEFAULT_POSITION as START_FEN };

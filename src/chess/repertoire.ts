import { Chess, DEFAULT_POSITION } from 'chess.js';
import { pgnTokens, PgnError, splitPgnGames, tagPair } from './pgn.js';
import { playSan, undoPlayed } from './sanReplay.js';
import type { Colour } from './types.js';

/**
 * A repertoire as the positions it reaches (issue 29). Positions, not move orders, are what a game is
 * matched against, so a game that transposes into the repertoire is in it. A position's key is its
 * FEN's placement, side to move and castling rights: the en-passant field is left out because chess.js
 * writes it only when a capture is possible, and a double step that allows none must not split one
 * position into two.
 */
export interface RepertoireBook {
  /** Position key → the repertoire's moves from it (SAN → the key after it) and its least ply. */
  positions: Record<string, { ply: number; moves: Record<string, string> }>;
  /** The deepest position's ply (each position counted at the least ply it is reached at): a line that comes back to a position does not deepen the book. */
  maxPly: number;
  /** Lines the book holds, for the caller's summary: its leaves, and the declared lines that end by coming back to a position reached earlier (a cycle). */
  lines: number;
}

export const positionKey = (fen: string) => fen.split(' ').slice(0, 3).join(' ');

const START_KEY = positionKey(DEFAULT_POSITION);

/** At most this many positions: a repertoire is a person's lines, not a database. */
export const MAX_REPERTOIRE_POSITIONS = 20_000;

/**
 * At most this many plies in one declared line, and variations nested at most MAX_VARIATION_DEPTH deep (issue 44):
 * no opening line is 500 moves long nor a variation 64 levels inside another, while a legal knight shuffle of
 * 68,147 plies or 60,000 variations each inside the last fit in the 500,000 characters a declaration may have.
 */
export const MAX_LINE_PLIES = 1_000;
export const MAX_VARIATION_DEPTH = 64;

function emptyBook(): RepertoireBook {
  return { positions: { [START_KEY]: { ply: 0, moves: {} } }, maxPly: 0, lines: 0 };
}

// Counted once per book as positions are added: Object.keys() per new position made a 500-line declaration quadratic.
const counts = new WeakMap<RepertoireBook, number>();
function positionCount(book: RepertoireBook): number {
  let n = counts.get(book);
  if (n === undefined) counts.set(book, (n = Object.keys(book.positions).length));
  return n;
}

function addMove(book: RepertoireBook, fromKey: string, san: string, toKey: string, ply: number): void {
  const from = book.positions[fromKey];
  from.moves[san] = toKey;
  const to = book.positions[toKey];
  if (to) to.ply = Math.min(to.ply, ply);
  else {
    if (positionCount(book) >= MAX_REPERTOIRE_POSITIONS) throw new PgnError('unsupported', `a repertoire holds at most ${MAX_REPERTOIRE_POSITIONS} positions`);
    book.positions[toKey] = { ply, moves: {} };
    counts.set(book, positionCount(book) + 1);
  }
}

// The positions where a declared line ended by coming back to a position already on its own path, per book.
const cycleEnds = new WeakMap<RepertoireBook, Set<string>>();
function endLine(book: RepertoireBook, path: readonly string[]): void {
  const key = path[path.length - 1];
  if (path.lastIndexOf(key, path.length - 2) < 0) return;
  let ends = cycleEnds.get(book);
  if (!ends) cycleEnds.set(book, (ends = new Set()));
  ends.add(key);
}

/**
 * The book's lines: its leaves (positions with no prepared move), and the declared lines that end by coming back
 * to a position on their own path (1.Nf3 Nf6 2.Ng1 Ng8 … has no leaf, and is still one line). A line that ends
 * where another continues is that other line.
 */
function countLines(book: RepertoireBook): number {
  let n = 0;
  for (const p of Object.values(book.positions)) {
    let leaf = true;
    for (const _ in p.moves) {
      leaf = false;
      break;
    }
    if (leaf) n += 1;
  }
  for (const key of cycleEnds.get(book) ?? []) if (Object.keys(book.positions[key].moves).length) n += 1;
  return n;
}

/** Moves added between two yields of the declaration's generators. */
const DECLARE_STEP = 128;

/** One game's movetext, its variations included, into the book; yields every DECLARE_STEP moves. */
function* addMovetext(book: RepertoireBook, movetext: string, firstLine: number, where: string): Generator<void, void> {
  let added = 0;
  // The board of each open variation level: the position now and the one before its last move.
  let board = new Chess();
  let before: string | null = null;
  let ply = 0;
  // The keys of the line's positions from the start, this one last (a variation's replaces its parent's last).
  const path: string[] = [START_KEY];
  const stack: Array<{ fen: string; before: string | null; ply: number; replaced: string }> = [];
  for (const tok of pgnTokens(movetext, firstLine)) {
    // Every token counts toward the next yield (a move replays, a variation opens or closes a board, a comment is
    // read), so no text, however it is made, holds the event loop for more than one step.
    if (++added % DECLARE_STEP === 0) yield;
    if (tok.kind === 'open') {
      if (before === null) throw new PgnError('unparseable', `${where}: a variation opens before any move`);
      if (stack.length >= MAX_VARIATION_DEPTH) throw new PgnError('unsupported', `${where}: variations nest at most ${MAX_VARIATION_DEPTH} deep in a repertoire`);
      stack.push({ fen: board.fen(), before, ply, replaced: path.pop()! });
      board = new Chess(before);
      before = null;
      ply -= 1;
    } else if (tok.kind === 'close') {
      const top = stack.pop();
      if (!top) throw new PgnError('unparseable', `${where}: a ) closes no variation`);
      endLine(book, path);
      path.length = top.ply; // back to the parent's path before its replaced move
      path.push(top.replaced);
      board = new Chess(top.fen);
      before = top.before;
      ply = top.ply;
    } else if (tok.kind === 'move') {
      const fen = board.fen();
      const mv = playSan(board, tok.text.replace(/^0-0-0/, 'O-O-O').replace(/^0-0/, 'O-O'));
      if (typeof mv === 'string') throw new PgnError('illegal-move', `${where}: ${tok.text} at ply ${ply + 1} is not legal in that position`);
      ply += 1;
      if (ply > MAX_LINE_PLIES) throw new PgnError('unsupported', `${where}: a repertoire line is at most ${MAX_LINE_PLIES} plies long`);
      const key = positionKey(board.fen());
      addMove(book, positionKey(fen), mv.san, key, ply);
      path.push(key);
      before = fen;
    }
  }
  if (stack.length) throw new PgnError('unparseable', `${where}: a ( variation is never closed`);
  if (ply > 0) endLine(book, path);
}

function finished(book: RepertoireBook): RepertoireBook {
  let maxPly = 0;
  for (const p of Object.values(book.positions)) maxPly = Math.max(maxPly, p.ply);
  book.maxPly = maxPly;
  if (book.maxPly === 0) throw new PgnError('moveless', 'the repertoire has no moves');
  book.lines = countLines(book);
  return book;
}

/**
 * The positions of a PGN with variations (standard 8.2.5: a variation replaces the move before it),
 * one or several games, every game from the standard start. Throws PgnError naming an illegal move.
 */
export function repertoireFromPgn(text: string): RepertoireBook {
  return toEnd(repertoireStepsFromPgn(text));
}

function toEnd<T>(steps: Generator<void, T>): T {
  for (;;) {
    const step = steps.next();
    if (step.done) return step.value;
  }
}

/** repertoireFromPgn as a generator that yields every few hundred moves, to run in slices (src/services/common/slices.ts). */
export function* repertoireStepsFromPgn(text: string): Generator<void, RepertoireBook> {
  const book = emptyBook();
  const games = splitPgnGames(text);
  if (!games.length || !text.trim()) throw new PgnError('empty', 'the repertoire PGN is empty');
  for (const [g, gameText] of games.entries()) {
    const movetext: string[] = [];
    let inHeaders = true;
    let firstLine = 1;
    for (const [n, line] of gameText.split('\n').entries()) {
      const pair = inHeaders ? tagPair(line) : null;
      if (pair) {
        if (pair[0] === 'FEN' && pair[1].trim() !== DEFAULT_POSITION) throw new PgnError('unsupported', `game ${g + 1}: a repertoire starts from the initial position (no FEN header)`);
        continue;
      }
      if (inHeaders && line.trim()) {
        inHeaders = false;
        firstLine = n + 1;
      }
      if (!inHeaders) movetext.push(line.trim().startsWith('%') ? '' : line);
    }
    yield* addMovetext(book, movetext.join('\n'), firstLine, `game ${g + 1}`);
  }
  return finished(book);
}

/** Lines typed in, each SAN from move 1 ("e4 e5 Nf3"; move numbers allowed): the same book as a PGN of them. */
export function repertoireFromLines(lines: readonly string[]): RepertoireBook {
  return toEnd(repertoireStepsFromLines(lines));
}

/** repertoireFromLines as a generator (repertoireStepsFromPgn). */
export function* repertoireStepsFromLines(lines: readonly string[]): Generator<void, RepertoireBook> {
  const book = emptyBook();
  for (const [i, line] of lines.entries()) yield* addMovetext(book, line, 1, `line ${i + 1}`);
  return finished(book);
}

/** Where a game stands against a repertoire of `colour`. */
export type RepertoireWalk =
  | { status: 'in-repertoire'; lastBookPly: number }
  | { status: 'repertoire-ended'; lastBookPly: number }
  | {
      status: 'deviation';
      /** The last ply whose position is in the repertoire (0 = the start). */
      lastBookPly: number;
      /** The deviating move: ply lastBookPly + 1. */
      ply: number;
      san: string;
      by: 'owner' | 'opponent';
      /** The repertoire's moves in the position the game left it from. */
      prepared: string[];
      /** Key of that position. */
      positionKey: string;
    };

/**
 * Plies a game is still followed past its last position in the repertoire, for a transposition back into it
 * (and past the repertoire's deepest line, for a late one): out of it for longer, it has left for good.
 */
export const TRANSPOSITION_SLACK_PLIES = 8;

/**
 * No game is followed past this ply (issue 37: a legal repertoire of 950 repeated knight moves made every game
 * be replayed to its end). A game still in the repertoire there counts as in it.
 */
export const MAX_FOLLOWED_PLIES = 80;

interface WalkNode {
  children: Map<string, WalkNode>;
  /** Replayed (legal, and followed): `last` and `lastKey` are set. */
  replayed: boolean;
  /** The last ply on the path to here whose position is in the book, and that position's key. */
  last: number;
  lastKey: string;
}

const walkNode = (): WalkNode => ({ children: new Map(), replayed: false, last: 0, lastKey: START_KEY });

/**
 * The first move that left the repertoire for good, for each game: the game's last position that is in the book
 * (matched by position, so a transposition into it counts as in it), and the move played from there. When that
 * position has no prepared move the repertoire ended rather than was left; when it is the game's last position the
 * game never left it. A game is followed while it is at most TRANSPOSITION_SLACK_PLIES past its last position in the
 * book, to MAX_FOLLOWED_PLIES at most. The games' moves are laid out as a trie and each distinct line is replayed
 * once, with one board, so 5,000 games sharing their first moves cost one replay of those moves.
 * `games` are mainlines from move 1, SAN.
 */
export function walkRepertoireGames(book: RepertoireBook, colour: Colour, games: ReadonlyArray<readonly string[] | string>): RepertoireWalk[] {
  return toEnd(walkRepertoireSteps(book, colour, games));
}

/** Positions replayed between two yields of walkRepertoireSteps. */
const STEP_NODES = 256;

/**
 * walkRepertoireGames as a generator that yields every STEP_NODES replayed positions, so a caller serving other
 * requests can run it in slices (src/services/common/slices.ts); its value is the walks. A game may be given as its
 * SAN moves joined by spaces (split here, in the slices).
 */
export function* walkRepertoireSteps(book: RepertoireBook, colour: Colour, given: ReadonlyArray<readonly string[] | string>): Generator<void, RepertoireWalk[]> {
  const limit = Math.min(book.maxPly + TRANSPOSITION_SLACK_PLIES, MAX_FOLLOWED_PLIES);
  const root = walkNode();
  root.replayed = true;
  const games: Array<readonly string[]> = [];
  for (const [g, line] of given.entries()) {
    if (g % STEP_NODES === STEP_NODES - 1) yield;
    const moves = typeof line === 'string' ? line.split(' ') : line;
    games.push(moves);
    let at = root;
    for (let i = 0; i < Math.min(moves.length, limit); i += 1) {
      let next = at.children.get(moves[i]);
      if (!next) at.children.set(moves[i], (next = walkNode()));
      at = next;
    }
  }
  const board = new Chess();
  let replayed = 0;
  function* visit(n: WalkNode, ply: number): Generator<void, void> {
    for (const [san, child] of n.children) {
      if (ply + 1 - n.last > TRANSPOSITION_SLACK_PLIES) continue; // out of the book too long: left for good
      if (typeof playSan(board, san) === 'string') continue; // a stored mainline always replays; be safe
      if (++replayed % STEP_NODES === 0) yield;
      const key = positionKey(board.fen());
      child.replayed = true;
      if (book.positions[key]) {
        child.last = ply + 1;
        child.lastKey = key;
      } else {
        child.last = n.last;
        child.lastKey = n.lastKey;
      }
      yield* visit(child, ply + 1);
      undoPlayed(board);
    }
  }
  yield* visit(root, 0);
  return games.map((moves) => {
    let at = root;
    for (const san of moves) {
      const next = at.children.get(san);
      if (!next?.replayed) break;
      at = next;
    }
    return walkFrom(book, colour, moves, at.last, at.lastKey, limit);
  });
}

/** `limit`: the last ply followed; a game still in the book there is in it (its next move is not a deviation). */
function walkFrom(book: RepertoireBook, colour: Colour, sanMoves: readonly string[], last: number, lastKey: string, limit: number): RepertoireWalk {
  if (last === sanMoves.length || last === limit) return { status: 'in-repertoire', lastBookPly: last };
  const prepared = Object.keys(book.positions[lastKey].moves);
  if (!prepared.length) return { status: 'repertoire-ended', lastBookPly: last };
  const toMove: Colour = lastKey.split(' ')[1] === 'w' ? 'white' : 'black';
  return {
    status: 'deviation',
    lastBookPly: last,
    ply: last + 1,
    san: sanMoves[last],
    by: toMove === colour ? 'owner' : 'opponent',
    prepared,
    positionKey: lastKey,
  };
}

/** One game against a repertoire (walkRepertoireGames). */
export function walkRepertoire(book: RepertoireBook, colour: Colour, sanMoves: readonly string[]): RepertoireWalk {
  return walkRepertoireGames(book, colour, [sanMoves])[0];
}

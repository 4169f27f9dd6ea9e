import type { Chess } from 'chess.js';

/**
 * Playing one SAN move of a game, as `Chess.move(san)` would, at a fraction of its cost.
 *
 * Why: `Chess.move()` builds a public Move object for every ply, and that constructor generates every
 * legal move of the position, writes SAN for them and prints two FENs; before it, resolving the SAN
 * writes SAN for every legal move of the piece type. A sync replays every ply of every game, so this
 * was most of its time (issue 13). Here the SAN is resolved by its target square and hints, checked
 * for legality only for the pieces that can go there, and its SAN written once, for the one move.
 *
 * The result is chess.js's own, byte for byte: the SAN and the board state come from chess.js's
 * methods (`_moveToSan`, `_makeMove`), and the quick path is taken only when the written SAN is the
 * one chess.js's strict parser would have matched (the canonical SAN equals the token, decorations
 * aside: the strict pass returns exactly that move, as canonical SANs of different moves differ).
 * Anything else (a non-canonical spelling, castling, a null move, no match) is resolved by chess.js's
 * own parser, permissive mode, as `move()` does. These are chess.js 1.4.0 internals: package.json pins
 * that exact version, and test/chess/sanReplay.test.ts compares every ply with `Chess.move()`.
 */
interface InternalMove {
  color: 'w' | 'b';
  from: number;
  to: number;
  piece: string;
  captured?: string;
  promotion?: string;
  flags: number;
}

interface ChessInternals {
  _turn: 'w' | 'b';
  _moves(opts: { legal?: boolean; piece?: string }): InternalMove[];
  _moveFromSan(san: string, strict: boolean): InternalMove | null;
  _moveToSan(move: InternalMove, moves: InternalMove[]): string;
  _makeMove(move: InternalMove): void;
  _undoMove(): unknown;
  _isKingAttacked(color: 'w' | 'b'): boolean;
  _incPositionCount(): void;
  _decPositionCount(hash: bigint): void;
  _hash: bigint;
}

// Canonical SAN shapes other than castling: piece, file/rank hints, capture, target, promotion, check.
const SAN_SHAPE = /^([NBRQK])?([a-h])?([1-8])?(x)?([a-h])([1-8])(?:=?([NBRQ]))?[+#]?$/;
const FILES = 'abcdefgh';

/** chess.js's strippedSan: the SAN without "=", check marks and annotation glyphs. */
function stripped(san: string): string {
  return san.replace(/=/, '').replace(/[+#]?[?!]*$/, '');
}

function square(sq: number): string {
  return FILES[sq & 15] + String(8 - (sq >> 4));
}

export interface PlayedSan {
  san: string;
  uci: string;
  from: string;
  to: string;
}

/** Why a SAN move was not played: not a legal move there, or a null move (chess.js's "--"). */
export type SanRefusal = 'illegal' | 'null';

function resolveQuick(c: ChessInternals, token: string): { move: InternalMove; san: string } | null {
  const m = SAN_SHAPE.exec(token);
  if (!m) return null;
  const [, pieceLetter, fileHint, rankHint, , toFile, toRank, promo] = m;
  const piece = pieceLetter ? pieceLetter.toLowerCase() : 'p';
  const to = (8 - Number(toRank)) * 16 + FILES.indexOf(toFile);
  const promotion = promo?.toLowerCase();
  const us = c._turn;
  // Legal moves of this piece type to the target: the only ones SAN disambiguation looks at.
  const sameTarget: InternalMove[] = [];
  for (const mv of c._moves({ legal: false, piece })) {
    if (mv.to !== to) continue;
    c._makeMove(mv);
    const legal = !c._isKingAttacked(us);
    c._undoMove();
    if (legal) sameTarget.push(mv);
  }
  let found: InternalMove | null = null;
  for (const mv of sameTarget) {
    if (fileHint && FILES[mv.from & 15] !== fileHint) continue;
    if (rankHint && String(8 - (mv.from >> 4)) !== rankHint) continue;
    if ((mv.promotion ?? undefined) !== promotion) continue;
    if (found) return null; // ambiguous as written: chess.js decides
    found = mv;
  }
  if (!found) return null;
  const san = c._moveToSan(found, sameTarget);
  return stripped(san) === stripped(token) ? { move: found, san } : null;
}

/**
 * Plays `token` (SAN, as `Chess.move(token)` accepts it) on `board`. Returns the move's canonical SAN
 * and UCI, or why it was refused (board unchanged). The board's state afterwards is the one
 * `board.move(token)` leaves (position, counters, history, repetition count).
 */
export function playSan(board: Chess, token: string): PlayedSan | SanRefusal {
  const c = board as unknown as ChessInternals;
  let move: InternalMove | null;
  let san: string;
  const quick = resolveQuick(c, token);
  if (quick) ({ move, san } = quick);
  else {
    move = c._moveFromSan(token, false);
    if (!move) return 'illegal';
    // chess.js's null move ("--") goes nowhere; Chess.move() refuses it in check (an error: "not legal").
    if (move.from === move.to) return board.isCheck() ? 'illegal' : 'null';
    san = c._moveToSan(move, c._moves({ legal: true }));
  }
  c._makeMove(move);
  c._incPositionCount();
  const from = square(move.from);
  const to = square(move.to);
  return { san, uci: from + to + (move.promotion ?? ''), from, to };
}

/** Takes back the last move, as `board.undo()` does, without building the Move object it returns. */
export function undoPlayed(board: Chess): void {
  const c = board as unknown as ChessInternals;
  const hash = c._hash;
  if (c._undoMove()) c._decPositionCount(hash);
}

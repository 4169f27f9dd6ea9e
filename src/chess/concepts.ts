import { Chess, type Color, type Move, type PieceSymbol, type Square } from 'chess.js';
import { CONCEPT_IDS, type Classification, type ConceptId, type ConceptTag, type Evaluation } from './types.js';
import { PIECE_NAME, PIECE_VALUE, enPrise, other } from './material.js';
import type { Phase } from './phase.js';
import { boardAt, playUci, viewBoard } from './replay.js';

/**
 * Concept detectors v1: deterministic tags from the stored analysis, the classification, clock
 * readings and legal-move replay. "Error" below means inaccuracy, mistake, miss or blunder;
 * "serious error" means mistake, miss or blunder.
 */
export const CONCEPT_RULES =
  'Detectors v1 (deterministic; no language model). hanging_piece: an error after which the engine\'s best reply captures a knight-or-better of the mover that is en prise (undefended, or capturable by a cheaper piece) and worth more than what the move itself captured (an even exchange such as 4.Bxc6 dxc6 hangs nothing). missed_capture: an error where the engine\'s first choice was a capture and the played move did not capture on that square. missed_mate: the mover had a forced mate before the move and not after it. allowed_mate: the opponent has a forced mate after the move and the mover was not already being mated (from −7.00 or better such a move is judged a blunder and is a critical moment). fork: a knight-or-better (or pawn) attacking two or more enemy pieces each either the king, worth more than the attacker, or undefended and worth ≥ 3; role played (the move made one), missed (an error where the engine\'s first choice made one) or allowed (an error after which the engine\'s best reply makes one against the mover). pin: a bishop, rook or queen pinning an enemy piece to its king, or to a piece behind it worth more than both the pinned piece and the pinner; role played (new after the move) or allowed (an error after which the engine\'s best reply creates one against the mover). back_rank: a missed or allowed mate whose engine line ends in checkmate by a rook or queen on the mated king\'s back rank. forcing_move_missed: a serious error where the engine\'s first choice was a check or capture and the played move was neither. opening_principle: an error in the opening phase that moves the queen early (before move 8 with two or more minor pieces undeveloped), walks the king (a king move that is not castling) or pushes a rook\'s pawn before move 8. time_trouble: the mover\'s clock before the move was under 10% of the base time (at least 10 s, at most 120 s). Threat detection is partial: only what these detectors see.';

/**
 * The note every analysis answer carries in availability.notes.concepts (spec): short, since every
 * call repeats it; what each detector looks for (CONCEPT_RULES) is stated once, in the schema.
 */
export const CONCEPT_NOTES =
  'Deterministic detectors (set v1, no language model); threat detection is partial (only what they see). What each looks for: this field\'s description in the tool\'s output schema.';

export const DETECTORS: readonly ConceptId[] = CONCEPT_IDS;

const ERRORS: ReadonlySet<Classification> = new Set(['inaccuracy', 'mistake', 'miss', 'blunder']);
const SERIOUS: ReadonlySet<Classification> = new Set(['mistake', 'miss', 'blunder']);

export interface ConceptInput {
  fenBefore: string;
  /** The played move (null when it did not replay). */
  played: Move | null;
  classification: Classification;
  /** Engine first choice before the move, and its line (UCI). */
  bestLine: readonly string[];
  /** Engine best line after the move (the opponent's reply first). */
  replyLine: readonly string[];
  evalBeforeMover: Evaluation | null;
  /** After the move, side-to-move (opponent) frame. */
  evalAfter: Evaluation | null;
  phase: Phase | null;
  moveNumber: number;
  clockSecondsBefore: number | null;
  baseSeconds: number | null;
  incrementSeconds: number | null;
}

function tag(id: ConceptId, evidence: Record<string, unknown>): ConceptTag {
  return { id, evidence, detector: 'v1' };
}

/** Enemy pieces the piece on `from` attacks that make it a fork; null when fewer than two. */
export function forkTargets(board: Chess, from: Square): Array<{ square: Square; piece: string }> | null {
  const attacker = board.get(from);
  if (!attacker || attacker.type === 'k') return null;
  const enemy = other(attacker.color);
  const targets: Array<{ square: Square; piece: string }> = [];
  for (const row of board.board()) {
    for (const sq of row) {
      if (!sq || sq.color !== enemy) continue;
      if (!board.attackers(sq.square, attacker.color).includes(from)) continue;
      const defended = board.attackers(sq.square, enemy).length > 0;
      const worth = sq.type === 'k' || PIECE_VALUE[sq.type] > PIECE_VALUE[attacker.type] || (!defended && PIECE_VALUE[sq.type] >= 3);
      if (worth) targets.push({ square: sq.square, piece: PIECE_NAME[sq.type] });
    }
  }
  return targets.length >= 2 ? targets : null;
}

interface Pin {
  pinner: Square;
  pinned: Square;
  target: Square;
  targetPiece: string;
}
const DIRS: Record<'b' | 'r', Array<[number, number]>> = {
  b: [[1, 1], [1, -1], [-1, 1], [-1, -1]],
  r: [[1, 0], [-1, 0], [0, 1], [0, -1]],
};
const sqName = (f: number, r: number) => `${'abcdefgh'[f]}${r + 1}` as Square;

/** Pins by `by`'s sliders: enemy piece, then the enemy king or a more valuable enemy piece behind it. */
export function pinsBy(board: Chess, by: Color): Pin[] {
  const pins: Pin[] = [];
  for (const row of board.board()) {
    for (const sq of row) {
      if (!sq || sq.color !== by || !['b', 'r', 'q'].includes(sq.type)) continue;
      const dirs = sq.type === 'q' ? [...DIRS.b, ...DIRS.r] : DIRS[sq.type as 'b' | 'r'];
      const f0 = sq.square.charCodeAt(0) - 97;
      const r0 = Number(sq.square[1]) - 1;
      for (const [df, dr] of dirs) {
        let first: { square: Square; type: PieceSymbol } | null = null;
        for (let f = f0 + df, r = r0 + dr; f >= 0 && f < 8 && r >= 0 && r < 8; f += df, r += dr) {
          const p = board.get(sqName(f, r));
          if (!p) continue;
          if (p.color === by) break;
          if (!first) {
            if (p.type === 'k') break;
            first = { square: sqName(f, r), type: p.type };
            continue;
          }
          // Absolute pin (to the king), or relative: the piece behind is worth more than both the pinned piece and the pinner.
          if (p.type === 'k' || (PIECE_VALUE[p.type] > PIECE_VALUE[first.type] && PIECE_VALUE[p.type] > PIECE_VALUE[sq.type])) {
            pins.push({ pinner: sq.square, pinned: first.square, target: sqName(f, r), targetPiece: PIECE_NAME[p.type] });
          }
          break;
        }
      }
    }
  }
  return pins;
}

const pinKey = (p: Pin) => `${p.pinner}${p.pinned}${p.target}`;

/** Plays `line` from `fen` and, when it ends in checkmate by a rook or queen on the mated king's back rank, says where. */
export function backRankMate(fen: string, line: readonly string[]): { mateSquare: Square; piece: string; kingSquare: Square } | null {
  const board = boardAt(fen);
  if (!board) return null;
  let last: Move | null = null;
  for (const u of line) {
    last = playUci(board, u);
    if (!last) return null;
  }
  if (!last || !board.isCheckmate() || (last.piece !== 'r' && last.piece !== 'q')) return null;
  const mated = board.turn();
  const backRank = mated === 'w' ? '1' : '8';
  const king = board.findPiece({ type: 'k', color: mated })[0];
  if (!king || king[1] !== backRank || last.to[1] !== backRank) return null;
  return { mateSquare: last.to, piece: PIECE_NAME[last.piece], kingSquare: king };
}

/** What the detectors need of a position after one engine move, read on a shared board and undone. */
interface Probe {
  move: Move;
  inCheck: boolean;
  forks: Array<{ square: Square; piece: string }> | null;
  pinsAgainstMover: Pin[];
}
function probe(fen: string, uci: string | undefined): Probe | null {
  if (!uci) return null;
  const board = viewBoard(fen);
  const move = board ? playUci(board, uci) : null;
  if (!board || !move) return null;
  try {
    return { move, inCheck: board.inCheck(), forks: forkTargets(board, move.to), pinsAgainstMover: pinsBy(board, move.color) };
  } finally {
    board.undo();
  }
}

function undevelopedMinors(board: Chess, c: Color): number {
  const home = c === 'w' ? ['b1', 'g1', 'c1', 'f1'] : ['b8', 'g8', 'c8', 'f8'];
  const types = ['n', 'n', 'b', 'b'];
  return home.filter((s, i) => {
    const p = board.get(s as Square);
    return p && p.color === c && p.type === types[i];
  }).length;
}

export function timeTroubleThreshold(baseSeconds: number): number {
  return Math.min(120, Math.max(10, baseSeconds * 0.1));
}

export function detectConcepts(x: ConceptInput): ConceptTag[] {
  const out: ConceptTag[] = [];
  const isError = ERRORS.has(x.classification);
  const mover: Color | null = x.played?.color ?? null;
  const best = probe(x.fenBefore, x.bestLine[0]);
  const afterFen = x.played?.after ?? null;
  const reply = afterFen ? probe(afterFen, x.replyLine[0]) : null;
  const bestIsPlayed = !!best && !!x.played && best.move.lan === x.played.lan;

  // hanging_piece: the refutation takes a piece the move left en prise, for more than the move itself took: taking
  // back what was just exchanged (4.Bxc6 dxc6, 11.Qxd7+ Kxd7) leaves the material even and hangs nothing.
  const exchanged = x.played?.captured ? PIECE_VALUE[x.played.captured] : 0;
  if (isError && x.played && reply?.move.captured && PIECE_VALUE[reply.move.captured] >= 3 && PIECE_VALUE[reply.move.captured] > exchanged) {
    const before = viewBoard(afterFen!)!;
    const hang = enPrise(before, reply.move.to, x.played.color);
    if (hang)
      out.push(tag('hanging_piece', { square: reply.move.to, piece: PIECE_NAME[reply.move.captured], capturedBy: reply.move.san, defended: hang.defended }));
  }
  // missed_capture
  if (isError && best?.move.captured && !bestIsPlayed && x.played?.to !== best.move.to) {
    out.push(tag('missed_capture', { bestMove: best.move.san, square: best.move.to, piece: PIECE_NAME[best.move.captured], played: x.played?.san ?? null }));
  }
  const moverMatedBefore = x.evalBeforeMover?.type === 'mate' && x.evalBeforeMover.value < 0;
  const hadMate = x.evalBeforeMover?.type === 'mate' && x.evalBeforeMover.value > 0;
  const stillMate = x.evalAfter?.type === 'mate' && x.evalAfter.value < 0; // opponent being mated
  // missed_mate
  if (hadMate && !stillMate && x.evalAfter) {
    out.push(tag('missed_mate', { mateIn: x.evalBeforeMover!.mateIn, bestMove: best?.move.san ?? null, played: x.played?.san ?? null }));
    const br = backRankMate(x.fenBefore, x.bestLine);
    if (br) out.push(tag('back_rank', { role: 'missed', ...br }));
  }
  // allowed_mate (mate 0 after the move is the mover's own checkmate: not "allowed")
  if (!moverMatedBefore && x.evalAfter?.type === 'mate' && x.evalAfter.value > 0 && (x.evalAfter.mateIn ?? 0) > 0 && afterFen) {
    out.push(tag('allowed_mate', { mateIn: x.evalAfter.mateIn, firstReply: reply?.move.san ?? null }));
    const br = backRankMate(afterFen, x.replyLine);
    if (br) out.push(tag('back_rank', { role: 'allowed', ...br }));
  }
  // fork
  if (x.played && afterFen) {
    const b = viewBoard(afterFen)!;
    const t = forkTargets(b, x.played.to);
    if (t) out.push(tag('fork', { role: 'played', square: x.played.to, piece: PIECE_NAME[x.played.piece], targets: t }));
    else if (isError && best && !bestIsPlayed) {
      const tb = best.forks;
      if (tb) out.push(tag('fork', { role: 'missed', move: best.move.san, square: best.move.to, piece: PIECE_NAME[best.move.piece], targets: tb }));
    }
    if (isError && reply) {
      const tr = reply.forks;
      if (tr) out.push(tag('fork', { role: 'allowed', move: reply.move.san, square: reply.move.to, piece: PIECE_NAME[reply.move.piece], targets: tr }));
    }
  }
  // pin
  if (x.played && afterFen && mover) {
    const beforeBoard = viewBoard(x.fenBefore)!;
    const had = new Set(pinsBy(beforeBoard, mover).map(pinKey));
    const made = pinsBy(viewBoard(afterFen)!, mover).filter((p) => !had.has(pinKey(p)));
    if (made.length) out.push(tag('pin', { role: 'played', pins: made }));
    if (isError && reply) {
      const had2 = new Set(pinsBy(viewBoard(afterFen)!, other(mover)).map(pinKey));
      const got = reply.pinsAgainstMover.filter((p) => !had2.has(pinKey(p)));
      if (got.length) out.push(tag('pin', { role: 'allowed', move: reply.move.san, pins: got }));
    }
  }
  // forcing_move_missed
  if (SERIOUS.has(x.classification) && best && !bestIsPlayed && x.played) {
    const bestCheck = best.inCheck;
    const forcing = bestCheck || !!best.move.captured;
    const playedForcing = !!x.played.captured || x.played.san.includes('+') || x.played.san.includes('#');
    if (forcing && !playedForcing) out.push(tag('forcing_move_missed', { bestMove: best.move.san, kind: bestCheck ? 'check' : 'capture', played: x.played.san }));
  }
  // opening_principle
  if (isError && x.phase === 'opening' && x.played && mover) {
    const b = viewBoard(x.fenBefore)!;
    const undeveloped = undevelopedMinors(b, mover);
    let rule: string | null = null;
    if (x.played.piece === 'q' && x.moveNumber < 8 && undeveloped >= 2) rule = 'early_queen';
    else if (x.played.piece === 'k' && !x.played.isKingsideCastle() && !x.played.isQueensideCastle()) rule = 'king_walk';
    else if (x.played.piece === 'p' && 'ah'.includes(x.played.from[0]) && x.moveNumber < 8) rule = 'rook_pawn';
    if (rule) out.push(tag('opening_principle', { rule, moveNumber: x.moveNumber, undevelopedMinors: undeveloped, played: x.played.san }));
  }
  const trouble = timeTroubleTag(x.clockSecondsBefore, x.baseSeconds, x.incrementSeconds);
  if (trouble) out.push(trouble);
  return out;
}

/**
 * time_trouble, the one detector that reads the owner's clocks rather than the engine output: a
 * review's stored plies are derived without clocks and each reader adds this tag (src/chess/ownerPly.ts).
 * Always the last tag of a ply.
 */
export function timeTroubleTag(clockSecondsBefore: number | null, baseSeconds: number | null, incrementSeconds: number | null): ConceptTag | null {
  if (clockSecondsBefore === null || !baseSeconds) return null;
  const threshold = timeTroubleThreshold(baseSeconds);
  if (clockSecondsBefore >= threshold) return null;
  return tag('time_trouble', { clockSecondsBefore, thresholdSeconds: threshold, baseSeconds, incrementSeconds });
}

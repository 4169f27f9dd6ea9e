import { Chess } from 'chess.js';
import { s } from './dom.js';
import { PIECE_NAMES, pieceSvg } from './pieces.js';

// The board, drawn as SVG here (chessground is GPL and cannot be bundled into this MIT project),
// with the pieces of pieces.ts. Coordinates sit outside the squares, in a margin left and below.
const SQ = 45;
const MARGIN = 14;
const FILES = 'abcdefgh';

export interface BoardOptions {
  orientation?: 'white' | 'black';
  /** The last move's squares (uci), highlighted. */
  lastMove?: string | null;
  label?: string;
  /** Moves drawn as arrows over the pieces (uci): the move played from this position, the engine's choice. */
  arrows?: ReadonlyArray<{ uci: string; kind: 'played' | 'best' }>;
}

/** The square of the king of the side to move when it is in check (a full FEN is needed), else null. */
function checkedKing(fen: string): string | null {
  if (fen.split(' ').length < 2) return null;
  try {
    const chess = new Chess(fen);
    if (!chess.inCheck()) return null;
    const king = chess.findPiece({ type: 'k', color: chess.turn() })[0];
    return king ?? null;
  } catch {
    return null;
  }
}

/** An SVG board of the position in a FEN. */
export function board(fen: string, opts: BoardOptions = {}): SVGElement {
  const flip = opts.orientation === 'black';
  const rows = fen.split(' ')[0].split('/');
  const size = SQ * 8;
  const svg = s('svg', {
    viewBox: `0 0 ${size + MARGIN} ${size + MARGIN}`,
    class: 'board',
    role: 'img',
    'aria-label': opts.label ?? `position ${fen}`,
    'data-testid': 'board',
    'data-fen': fen,
  });
  const marked = new Set<string>();
  if (opts.lastMove && /^[a-h][1-8][a-h][1-8]/.test(opts.lastMove)) {
    marked.add(opts.lastMove.slice(0, 2));
    marked.add(opts.lastMove.slice(2, 4));
  }
  const check = checkedKing(fen);
  if (check) svg.setAttribute('data-check', check);
  // Square (file 0–7 from a, rank 0–7 from the 8th) to its top-left corner on screen.
  const at = (file: number, rank: number) => ({ x: MARGIN + (flip ? 7 - file : file) * SQ, y: (flip ? 7 - rank : rank) * SQ });
  for (let rank = 0; rank < 8; rank++) {
    for (let file = 0; file < 8; file++) {
      const { x, y } = at(file, rank);
      const name = `${FILES[file]}${8 - rank}`;
      const light = (rank + file) % 2 === 0;
      svg.append(s('rect', { x, y, width: SQ, height: SQ, class: `sq ${light ? 'light' : 'dark'}${marked.has(name) ? ' last' : ''}`, 'data-square': name }));
      if (name === check) svg.append(s('circle', { cx: x + SQ / 2, cy: y + SQ / 2, r: SQ * 0.48, class: 'check', 'data-testid': 'check' }));
    }
  }
  svg.append(s('rect', { x: MARGIN, y: 0, width: size, height: size, class: 'frame' }));
  for (let i = 0; i < 8; i++) {
    svg.append(s('text', { x: MARGIN + i * SQ + SQ / 2, y: size + MARGIN - 3, class: 'coord', 'text-anchor': 'middle' }, FILES[flip ? 7 - i : i]));
    svg.append(s('text', { x: MARGIN / 2, y: i * SQ + SQ / 2 + 4, class: 'coord', 'text-anchor': 'middle' }, String(flip ? i + 1 : 8 - i)));
  }
  rows.forEach((row, rank) => {
    let file = 0;
    for (const ch of row) {
      if (/\d/.test(ch)) {
        file += Number(ch);
        continue;
      }
      const white = ch === ch.toUpperCase();
      const kind = ch.toLowerCase();
      if (PIECE_NAMES[kind]) {
        const { x, y } = at(file, rank);
        svg.append(pieceSvg(kind, white, x, y, SQ, `${white ? 'white' : 'black'} ${PIECE_NAMES[kind]} ${FILES[file]}${8 - rank}`));
      }
      file += 1;
    }
  });
  for (const a of opts.arrows ?? []) {
    const arrow = moveArrow(a.uci, a.kind, (sq) => at(FILES.indexOf(sq[0]), 8 - Number(sq[1])));
    if (arrow) svg.append(arrow);
  }
  return svg;
}

/** An arrow from the move's origin square to its target, square centre to centre, its head a triangle (no SVG
 * marker: a marker's id would be shared by every board on a page). */
function moveArrow(uci: string, kind: string, corner: (square: string) => { x: number; y: number }): SVGElement | null {
  if (!/^[a-h][1-8][a-h][1-8]/.test(uci)) return null;
  const from = corner(uci.slice(0, 2));
  const to = corner(uci.slice(2, 4));
  const [x1, y1, x2, y2] = [from.x + SQ / 2, from.y + SQ / 2, to.x + SQ / 2, to.y + SQ / 2];
  const len = Math.hypot(x2 - x1, y2 - y1);
  if (!len) return null;
  const [ux, uy] = [(x2 - x1) / len, (y2 - y1) / len];
  const head = SQ * 0.42;
  const [bx, by] = [x2 - ux * head, y2 - uy * head];
  const w = SQ * 0.22;
  // The shaft's two edges (half the head's width apart), then the head's barbs and tip.
  const pt = (x: number, y: number, side: number) => `${(x + uy * side).toFixed(1)},${(y - ux * side).toFixed(1)}`;
  const d = `M${pt(x1, y1, w * 0.45)} L${pt(bx, by, w * 0.45)} L${pt(bx, by, w)} L${pt(x2, y2, 0)} L${pt(bx, by, -w)} L${pt(bx, by, -w * 0.45)} L${pt(x1, y1, -w * 0.45)} Z`;
  return s('path', { d, class: `arrow ${kind}`, 'data-testid': `arrow-${kind}`, 'data-uci': uci.slice(0, 4) });
}

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
  return svg;
}

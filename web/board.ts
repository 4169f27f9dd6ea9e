import { s } from './dom.js';

// The board, drawn as SVG here (chessground is GPL and cannot be bundled into this MIT project).
// Pieces are the Unicode chess symbols: the solid forms for both sides, filled white or black with
// an outline, and U+FE0E asking for text (not emoji) presentation.
const GLYPH: Record<string, string> = { k: '\u265A', q: '\u265B', r: '\u265C', b: '\u265D', n: '\u265E', p: '\u265F' };
const NAMES: Record<string, string> = { k: 'king', q: 'queen', r: 'rook', b: 'bishop', n: 'knight', p: 'pawn' };
const SQ = 45;

export interface BoardOptions {
  orientation?: 'white' | 'black';
  /** The last move's squares (uci), highlighted. */
  lastMove?: string | null;
  label?: string;
}

/** An SVG board of the position in a FEN (placement field only is read). */
export function board(fen: string, opts: BoardOptions = {}): SVGElement {
  const flip = opts.orientation === 'black';
  const rows = fen.split(' ')[0].split('/');
  const svg = s('svg', {
    viewBox: `0 0 ${SQ * 8} ${SQ * 8}`,
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
  for (let rank = 0; rank < 8; rank++) {
    for (let file = 0; file < 8; file++) {
      const x = (flip ? 7 - file : file) * SQ;
      const y = (flip ? 7 - rank : rank) * SQ;
      const name = `${'abcdefgh'[file]}${8 - rank}`;
      const light = (rank + file) % 2 === 0;
      svg.append(s('rect', { x, y, width: SQ, height: SQ, class: `sq ${light ? 'light' : 'dark'}${marked.has(name) ? ' last' : ''}` }));
    }
  }
  // Coordinates on the bottom rank and left file.
  for (let i = 0; i < 8; i++) {
    const fileName = 'abcdefgh'[flip ? 7 - i : i];
    const rankName = String(flip ? i + 1 : 8 - i);
    svg.append(s('text', { x: i * SQ + SQ - 3, y: SQ * 8 - 3, class: `coord ${(7 + i) % 2 === 0 ? 'on-light' : 'on-dark'}`, 'text-anchor': 'end' }, fileName));
    svg.append(s('text', { x: 2, y: i * SQ + 10, class: `coord ${i % 2 === 0 ? 'on-light' : 'on-dark'}` }, rankName));
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
      const x = (flip ? 7 - file : file) * SQ + SQ / 2;
      const y = (flip ? 7 - rank : rank) * SQ + SQ / 2;
      if (GLYPH[kind]) {
        svg.append(
          s(
            'text',
            { x, y, class: `piece ${white ? 'white' : 'black'}`, 'text-anchor': 'middle', 'dominant-baseline': 'central' },
            s('title', {}, `${white ? 'white' : 'black'} ${NAMES[kind]} ${'abcdefgh'[file]}${8 - rank}`),
            `${GLYPH[kind]}\uFE0E`,
          ),
        );
      }
      file += 1;
    }
  });
  return svg;
}

import { s } from './dom.js';

// Chess pieces drawn for this project (MIT, like the rest of it): Staunton-like silhouettes built
// from a few paths and circles in a 45×45 square. Not derived from any published set; the common
// free sets are GPL or CC-BY-SA and cannot ship in this bundle.

type Part = { d: string } | { c: [number, number, number] } | { line: string };

const BASE: Part = { d: 'M10.5 39.5h24v-2.3c0-1.9-1.4-3-3.3-3H13.8c-1.9 0-3.3 1.1-3.3 3z' };

const SHAPES: Record<string, Part[]> = {
  p: [
    { d: 'M12 39.5h21v-2.2c0-1.9-1.4-3-3.3-3H15.3c-1.9 0-3.3 1.1-3.3 3z' },
    { d: 'M15.5 34.3c.9-4.1 3.4-6.6 5-8.1h4c1.6 1.5 4.1 4 5 8.1z' },
    { d: 'M17.6 26.6h9.8a1.7 1.7 0 0 0 0-3.4h-9.8a1.7 1.7 0 0 0 0 3.4z' },
    { c: [22.5, 17.8, 5.6] },
  ],
  r: [
    { d: 'M9.5 39.5h26v-3.3h-26z' },
    { d: 'M11.5 36.2h22v-2.8h-22z' },
    { d: 'M14.2 33.4l1.4-14.6h13.8l1.4 14.6z' },
    { d: 'M12.5 18.8v-8.6h4v3.1h3.6v-3.1h4.8v3.1h3.6v-3.1h4v8.6z' },
    { line: 'M15.6 21.5h13.8M15.2 30.5h14.6' },
  ],
  b: [
    BASE,
    { d: 'M15 34.2c1.6-3.2 4.1-4.7 5.1-7.6h4.8c1 2.9 3.5 4.4 5.1 7.6z' },
    { d: 'M16.6 27.2h11.8a1.6 1.6 0 0 0 0-3.2H16.6a1.6 1.6 0 0 0 0 3.2z' },
    { d: 'M22.5 8.6c-4.2 4-7.6 7.8-7.6 11.4 0 3 2.6 4 7.6 4s7.6-1 7.6-4c0-3.6-3.4-7.4-7.6-11.4z' },
    { c: [22.5, 7, 2.1] },
    { line: 'M25.8 12.6l-4.6 6.2M20.5 17.3h4' },
  ],
  n: [
    BASE,
    {
      d: 'M15 34.2c0-4.5 2.4-7.4 4.4-9.7-2.6 1.1-5.4 1.9-7.6 1.6-2.2-.4-3.3-2.4-2.4-4.4L17.8 12c1.5-1.8 3.3-2.7 5-3.1l1.7-3.6 2 3.4c5.6 1.2 8.9 7.2 8.6 14.6-.2 4.2-1.2 7.8-2 10.9z',
    },
    { line: 'M27.4 11.6c3.4 2.9 4.9 7.3 4.5 13.5M12.6 22.2l1.1-.4' },
    { c: [19.8, 14.8, 1.15] },
  ],
  q: [
    BASE,
    { d: 'M13.3 34.2L9.4 15.2l6.9 9.4-.6-12.1 5.3 11.4 1.5-12.8 1.5 12.8 5.3-11.4-.6 12.1 6.9-9.4-3.9 19z' },
    { c: [9.4, 14.2, 2] },
    { c: [15.7, 11.6, 2] },
    { c: [22.5, 9.4, 2] },
    { c: [29.3, 11.6, 2] },
    { c: [35.6, 14.2, 2] },
    { line: 'M13 30.4c5.8-1.6 13.2-1.6 19 0' },
  ],
  k: [
    BASE,
    { d: 'M13 34.2c-3.8-5.4-4.6-12.8 1.4-14.3 3.5-.9 6.2 1.4 8.1 4.3 1.9-2.9 4.6-5.2 8.1-4.3 6 1.5 5.2 8.9 1.4 14.3z' },
    { d: 'M22.5 24.4c-1.9-2.6-2.5-5.6 0-8.4 2.5 2.8 1.9 5.8 0 8.4z' },
    { d: 'M21.2 5.5h2.6v3.2h3v2.6h-3v4.3h-2.6v-4.3h-3V8.7h3z' },
    { line: 'M13 30.4c5.8-1.6 13.2-1.6 19 0' },
  ],
};

export const PIECE_NAMES: Record<string, string> = { k: 'king', q: 'queen', r: 'rook', b: 'bishop', n: 'knight', p: 'pawn' };

/** One piece (`kind` in pnbrqk) with its top-left corner at x, y, scaled from 45 to `size`. */
export function pieceSvg(kind: string, white: boolean, x: number, y: number, size: number, title: string): SVGElement {
  // Drawn 6% larger than the 45-unit square's design, centred, the base 1.5 units off the edge.
  const k = (size / 45) * 1.06;
  const g = s('g', { class: `piece ${white ? 'white' : 'black'}`, transform: `translate(${x - 1.35 * (size / 45)} ${y - 0.87 * (size / 45)}) scale(${k})`, 'data-piece': white ? kind.toUpperCase() : kind }, s('title', {}, title));
  for (const part of SHAPES[kind] ?? []) {
    if ('d' in part) g.append(s('path', { d: part.d, class: 'body' }));
    else if ('c' in part) g.append(s('circle', { cx: part.c[0], cy: part.c[1], r: part.c[2], class: kind === 'n' ? 'eye' : 'body' }));
    else g.append(s('path', { d: part.line, class: 'detail' }));
  }
  return g;
}

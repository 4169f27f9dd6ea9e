import { s } from './dom.js';
import { whiteWinChances } from './format.js';
import { timeTicks, valueTicks } from './ticks.js';

// Charts as plain SVG: a line chart (ratings over dates) and the evaluation graph (win chances
// over plies). Values are drawn, and every label is text.

export interface Series {
  name: string;
  points: Array<{ x: number; y: number }>;
}

const PALETTE = ['#1f77b4', '#d62728', '#2ca02c', '#9467bd', '#ff7f0e', '#17becf', '#8c564b', '#e377c2', '#7f7f7f', '#bcbd22'];

/** Lines over a time axis (x = epoch ms), with a legend; one colour per series. `width` is the
 * space it gets on screen in CSS pixels, so labels keep their size on a phone. */
export function lineChart(series: Series[], opts: { testid?: string; width?: number; height?: number; label: string }): SVGElement {
  const W = Math.round(Math.max(300, Math.min(1100, opts.width ?? 720)));
  const H = opts.height ?? Math.round(Math.min(280, Math.max(200, W * 0.45)));
  const pad = { l: 40, r: 10, t: 10, b: 24 };
  const all = series.flatMap((x) => x.points);
  const svg = s('svg', { viewBox: `0 0 ${W} ${H}`, class: 'chart', role: 'img', 'aria-label': opts.label, 'data-testid': opts.testid });
  if (!all.length) {
    svg.append(s('text', { x: W / 2, y: H / 2, 'text-anchor': 'middle', class: 'muted' }, 'no rating points in this range'));
    return svg;
  }
  let [x0, x1] = [Math.min(...all.map((p) => p.x)), Math.max(...all.map((p) => p.x))];
  if (x0 === x1) [x0, x1] = [x0 - 86_400_000, x1 + 86_400_000];
  const yTicks = valueTicks(Math.min(...all.map((p) => p.y)), Math.max(...all.map((p) => p.y)));
  const [y0, y1] = [yTicks[0], yTicks[yTicks.length - 1]];
  const X = (x: number) => pad.l + ((x - x0) / (x1 - x0)) * (W - pad.l - pad.r);
  const Y = (y: number) => pad.t + (1 - (y - y0) / (y1 - y0)) * (H - pad.t - pad.b);
  for (const v of yTicks) {
    svg.append(s('line', { x1: pad.l, x2: W - pad.r, y1: Y(v), y2: Y(v), class: 'grid' }));
    svg.append(s('text', { x: pad.l - 4, y: Y(v) + 4, 'text-anchor': 'end', class: 'axis', 'data-tick': 'y' }, v));
  }
  for (const { t, label } of timeTicks(x0, x1, Math.max(3, Math.floor((W - pad.l) / 70)))) {
    svg.append(s('line', { x1: X(t), x2: X(t), y1: pad.t, y2: H - pad.b, class: 'grid' }));
    svg.append(s('text', { x: X(t), y: H - 7, 'text-anchor': 'middle', class: 'axis', 'data-tick': 'x' }, label));
  }
  series.forEach((line, i) => {
    const colour = PALETTE[i % PALETTE.length];
    const d = line.points.map((p, j) => `${j ? 'L' : 'M'}${X(p.x).toFixed(1)},${Y(p.y).toFixed(1)}`).join(' ');
    svg.append(s('path', { d, class: 'series', stroke: colour, 'data-series': line.name }, s('title', {}, line.name)));
    if (line.points.length === 1) svg.append(s('circle', { cx: X(line.points[0].x), cy: Y(line.points[0].y), r: 3, fill: colour }));
  });
  return svg;
}

export function legend(series: Series[]): HTMLElement {
  const ul = document.createElement('ul');
  ul.className = 'legend';
  series.forEach((line, i) => {
    const li = document.createElement('li');
    const swatch = s('svg', { viewBox: '0 0 10 10', class: 'swatch' }, s('rect', { width: 10, height: 10, fill: PALETTE[i % PALETTE.length] }));
    const last = line.points[line.points.length - 1];
    li.append(swatch, document.createTextNode(` ${line.name}${last ? ` (${last.y})` : ''}`));
    ul.append(li);
  });
  return ul;
}

/** The evaluation scale's lines, in pawns from White's view (lichess's win% curve places them). */
const PAWN_LINES = [5, 2, 0, -2, -5];

/**
 * White's win chances after each ply (0–100, 50 = level), as an area graph with a pawn scale on the
 * left and the level line labelled. Clicking a ply calls `onPick`; `mark(ply)` moves the cursor.
 * The chances are the server's stored evaluations put through lichess's win% curve (format.ts),
 * the curve the server's accuracy uses; `width` is its size on screen in CSS pixels.
 */
export function evalGraph(values: Array<{ ply: number; whiteChances: number; cls?: string | null }>, onPick: (ply: number) => void, width = 720) {
  const W = Math.round(Math.max(300, Math.min(1100, width)));
  const H = 160;
  const L = 30;
  const n = Math.max(1, values.length);
  const plotW = W - L;
  const X = (i: number) => L + (i / n) * plotW + plotW / n / 2;
  const Y = (c: number) => H - (c / 100) * H;
  const svg = s('svg', { viewBox: `0 0 ${W} ${H}`, class: 'evalgraph', role: 'img', 'aria-label': "evaluation graph: White's winning chances after each move", 'data-testid': 'eval-graph' });
  svg.append(s('rect', { x: L, y: 0, width: plotW, height: H, class: 'eval-bg' }));
  const last = values.length ? Y(values[values.length - 1].whiteChances).toFixed(1) : String(H / 2);
  const area = [`M${L},${H}`, `L${L},${Y(50)}`, ...values.map((v, i) => `L${X(i).toFixed(1)},${Y(v.whiteChances).toFixed(1)}`), `L${W},${last}`, `L${W},${H}`, 'Z'].join(' ');
  svg.append(s('path', { d: area, class: 'eval-area' }));
  for (const pawns of PAWN_LINES) {
    const y = Y(whiteWinChances({ type: 'cp', value: pawns * 100 }, 1));
    svg.append(s('line', { x1: L, x2: W, y1: y, y2: y, class: pawns === 0 ? 'eval-mid' : 'eval-grid' }));
    svg.append(s('text', { x: L - 4, y: y + 4, 'text-anchor': 'end', class: 'axis', 'data-pawns': pawns }, pawns > 0 ? `+${pawns}` : pawns < 0 ? `−${-pawns}` : '0'));
  }
  svg.append(s('text', { x: W - 4, y: 12, 'text-anchor': 'end', class: 'eval-side white-side' }, 'White better'));
  svg.append(s('text', { x: W - 4, y: H - 5, 'text-anchor': 'end', class: 'eval-side black-side' }, 'Black better'));
  values.forEach((v, i) => {
    if (v.cls === 'blunder' || v.cls === 'mistake' || v.cls === 'inaccuracy') {
      svg.append(s('circle', { cx: X(i), cy: Y(v.whiteChances), r: 4, class: `dot ${v.cls}` }));
    }
  });
  const cursor = s('line', { x1: L, x2: L, y1: 0, y2: H, class: 'eval-cursor', 'data-ply': 0 });
  svg.append(cursor);
  // One transparent hit column per ply, so a click anywhere above a ply picks it.
  values.forEach((v, i) => {
    svg.append(
      s('rect', { x: L + (i / n) * plotW, y: 0, width: plotW / n, height: H, class: 'eval-hit', 'data-ply': v.ply, onclick: () => onPick(v.ply) }, s('title', {}, `ply ${v.ply}: White ${v.whiteChances.toFixed(0)}%`)),
    );
  });
  const mark = (ply: number) => {
    const i = values.findIndex((v) => v.ply === ply);
    const x = i < 0 ? L : X(i);
    cursor.setAttribute('x1', String(x));
    cursor.setAttribute('x2', String(x));
    cursor.setAttribute('data-ply', String(ply));
    svg.setAttribute('data-ply', String(ply));
  };
  return { svg, mark };
}

import { s } from './dom.js';

// Charts as plain SVG: a line chart (ratings over dates) and the evaluation graph (win chances
// over plies). Values are drawn, and every label is text.

export interface Series {
  name: string;
  points: Array<{ x: number; y: number }>;
}

const PALETTE = ['#1f77b4', '#d62728', '#2ca02c', '#9467bd', '#ff7f0e', '#17becf', '#8c564b', '#e377c2', '#7f7f7f', '#bcbd22'];

/** Lines over a time axis (x = epoch ms), with a legend; one colour per series. */
export function lineChart(series: Series[], opts: { testid?: string; width?: number; height?: number; label: string }): SVGElement {
  const W = opts.width ?? 720;
  const H = opts.height ?? 280;
  const pad = { l: 44, r: 12, t: 12, b: 28 };
  const all = series.flatMap((x) => x.points);
  const svg = s('svg', { viewBox: `0 0 ${W} ${H}`, class: 'chart', role: 'img', 'aria-label': opts.label, 'data-testid': opts.testid });
  if (!all.length) {
    svg.append(s('text', { x: W / 2, y: H / 2, 'text-anchor': 'middle', class: 'muted' }, 'no rating points in this range'));
    return svg;
  }
  let [x0, x1] = [Math.min(...all.map((p) => p.x)), Math.max(...all.map((p) => p.x))];
  let [y0, y1] = [Math.min(...all.map((p) => p.y)), Math.max(...all.map((p) => p.y))];
  if (x0 === x1) [x0, x1] = [x0 - 86_400_000, x1 + 86_400_000];
  const span = Math.max(50, y1 - y0);
  [y0, y1] = [Math.floor((y0 - span * 0.08) / 10) * 10, Math.ceil((y1 + span * 0.08) / 10) * 10];
  const X = (x: number) => pad.l + ((x - x0) / (x1 - x0)) * (W - pad.l - pad.r);
  const Y = (y: number) => pad.t + (1 - (y - y0) / (y1 - y0)) * (H - pad.t - pad.b);
  for (let i = 0; i <= 4; i++) {
    const v = Math.round(y0 + ((y1 - y0) * i) / 4);
    svg.append(s('line', { x1: pad.l, x2: W - pad.r, y1: Y(v), y2: Y(v), class: 'grid' }));
    svg.append(s('text', { x: pad.l - 4, y: Y(v) + 4, 'text-anchor': 'end', class: 'axis' }, v));
  }
  for (let i = 0; i <= 4; i++) {
    const t = x0 + ((x1 - x0) * i) / 4;
    svg.append(s('text', { x: X(t), y: H - 8, 'text-anchor': i === 0 ? 'start' : i === 4 ? 'end' : 'middle', class: 'axis' }, new Date(t).toISOString().slice(0, 10)));
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

/**
 * White's win chances after each ply (0–100, 50 = level), as an area graph. Clicking a ply calls
 * `onPick`; `mark(ply)` moves the cursor. The chances are the server's stored evaluations put
 * through lichess's win% curve (format.ts), the curve the server's accuracy uses.
 */
export function evalGraph(values: Array<{ ply: number; whiteChances: number; cls?: string | null }>, onPick: (ply: number) => void) {
  const W = 720;
  const H = 140;
  const n = Math.max(1, values.length);
  const X = (i: number) => (i / n) * W + W / n / 2;
  const Y = (c: number) => H - (c / 100) * H;
  const svg = s('svg', { viewBox: `0 0 ${W} ${H}`, class: 'evalgraph', role: 'img', 'aria-label': 'evaluation graph', 'data-testid': 'eval-graph', preserveAspectRatio: 'none' });
  svg.append(s('rect', { x: 0, y: 0, width: W, height: H, class: 'eval-bg' }));
  const area = [`M0,${H}`, `L0,${Y(50)}`, ...values.map((v, i) => `L${X(i).toFixed(1)},${Y(v.whiteChances).toFixed(1)}`), `L${W},${values.length ? Y(values[values.length - 1].whiteChances).toFixed(1) : H / 2}`, `L${W},${H}`, 'Z'].join(' ');
  svg.append(s('path', { d: area, class: 'eval-area' }));
  svg.append(s('line', { x1: 0, x2: W, y1: H / 2, y2: H / 2, class: 'eval-mid' }));
  values.forEach((v, i) => {
    if (v.cls === 'blunder' || v.cls === 'mistake' || v.cls === 'inaccuracy') {
      svg.append(s('circle', { cx: X(i), cy: Y(v.whiteChances), r: 4, class: `dot ${v.cls}` }));
    }
  });
  const cursor = s('line', { x1: 0, x2: 0, y1: 0, y2: H, class: 'eval-cursor', 'data-ply': 0 });
  svg.append(cursor);
  // One transparent hit column per ply, so a click anywhere above a ply picks it.
  values.forEach((v, i) => {
    svg.append(
      s('rect', { x: (i / n) * W, y: 0, width: W / n, height: H, class: 'eval-hit', 'data-ply': v.ply, onclick: () => onPick(v.ply) }, s('title', {}, `ply ${v.ply}: White ${v.whiteChances.toFixed(0)}%`)),
    );
  });
  const mark = (ply: number) => {
    const i = values.findIndex((v) => v.ply === ply);
    const x = i < 0 ? 0 : X(i);
    cursor.setAttribute('x1', String(x));
    cursor.setAttribute('x2', String(x));
    cursor.setAttribute('data-ply', String(ply));
    svg.setAttribute('data-ply', String(ply));
  };
  return { svg, mark };
}

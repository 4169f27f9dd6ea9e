// The one way the dashboard makes elements. Text always goes in through textContent (never
// innerHTML), so every value from a source (opponent names, events, PGN comments) renders as text.

import { day, label, lineMove, movePairs, plain, when } from './format.js';

type Child = Node | string | number | null | undefined | false;
type Attrs = Record<string, string | number | boolean | null | undefined | EventListener>;

const SVG_NS = 'http://www.w3.org/2000/svg';

function apply(el: Element, attrs: Attrs | undefined, children: Child[]): void {
  for (const [key, value] of Object.entries(attrs ?? {})) {
    if (value === null || value === undefined || value === false) continue;
    if (typeof value === 'function') el.addEventListener(key.replace(/^on/, ''), value);
    // CSP forbids inline style attributes; styling goes through classes in app.css.
    else if (key === 'style') throw new Error('inline styles are blocked by the CSP: use a class');
    else el.setAttribute(key, value === true ? '' : String(value));
  }
  append(el, children);
}

export function append(el: Element, children: Child[]): void {
  for (const c of children) {
    if (c === null || c === undefined || c === false) continue;
    el.append(typeof c === 'string' || typeof c === 'number' ? document.createTextNode(String(c)) : c);
  }
}

export function h<K extends keyof HTMLElementTagNameMap>(tag: K, attrs?: Attrs, ...children: Child[]): HTMLElementTagNameMap[K] {
  const el = document.createElement(tag);
  apply(el, attrs, children);
  return el;
}

export function s(tag: string, attrs?: Attrs, ...children: Child[]): SVGElement {
  const el = document.createElementNS(SVG_NS, tag) as SVGElement;
  apply(el, attrs, children);
  return el;
}

export function clear(el: Element): void {
  el.replaceChildren();
}

/** A link handled by the client-side router. */
export function link(href: string, ...children: Child[]): HTMLAnchorElement {
  return h('a', { href, 'data-link': true }, ...children);
}

/**
 * A table from rows; each cell is text or a node. On a phone a table of more than four columns (or
 * `stack`) shows its rows as cards, each cell labelled with its header (style.css).
 */
export function table(headers: string[], rows: Child[][], rowAttrs?: (i: number) => Attrs, stack = headers.length > 4): HTMLTableElement {
  return h(
    'table',
    { class: stack ? 'stack' : null },
    h('thead', {}, h('tr', {}, ...headers.map((t) => h('th', {}, t)))),
    h('tbody', {}, ...rows.map((r, i) => h('tr', rowAttrs?.(i) ?? {}, ...r.map((c, j) => h('td', { 'data-label': headers[j] ?? '' }, c))))),
  );
}

/** Any JSON value as nested definition lists and tables: every leaf is text, keys in words, figures rounded (format.ts). */
export function dataView(value: unknown, depth = 0): Node {
  if (value === null || value === undefined) return document.createTextNode('—');
  if (typeof value !== 'object') return document.createTextNode(plain(value));
  if (Array.isArray(value)) {
    if (value.length === 0) return document.createTextNode('none');
    if (value.every((v) => v !== null && typeof v === 'object' && !Array.isArray(v))) {
      const keys = [...new Set(value.flatMap((v) => Object.keys(v as object)))];
      return table(
        keys.map(label),
        value.map((v) => keys.map((k) => dataView((v as Record<string, unknown>)[k], depth + 1))),
      );
    }
    return document.createTextNode(value.map((v) => (typeof v === 'object' ? '…' : plain(v))).join(', '));
  }
  return h('dl', { class: depth ? 'data nested' : 'data' }, ...Object.entries(value as object).flatMap(([k, v]) => [h('dt', {}, label(k)), h('dd', {}, dataView(v, depth + 1))]));
}

/** Copies text with the Clipboard API, falling back to selecting it for the user. */
export async function copyText(text: string, button: HTMLButtonElement): Promise<void> {
  try {
    await navigator.clipboard.writeText(text);
    button.textContent = 'Copied';
  } catch {
    button.textContent = 'Select and copy';
  }
  setTimeout(() => (button.textContent = 'Copy'), 2000);
}

/** A line of moves that wraps only between move pairs ("1. e4 e5" stays together). */
export function moveLine(line: string | readonly string[], startPly = 0): HTMLElement {
  const pairs = movePairs(line, startPly);
  return h('span', { class: 'line' }, ...(pairs.length ? pairs.flatMap((p, i) => [i ? ' ' : '', h('span', { class: 'pair' }, p)]) : ['the start']));
}

/** A line as a breadcrumb: Start, then each move ("1.e4", "e5", "2.Nf3"), each going back to the position after it. */
export function lineCrumbs(sans: readonly string[], onPick: (moves: string) => void, attrs: Attrs = {}): HTMLElement {
  return h(
    'p',
    { class: 'crumbs', ...attrs },
    h('button', { type: 'button', class: 'link', onclick: () => onPick('') }, 'Start'),
    ...sans.flatMap((san, i) => [' ', h('button', { type: 'button', class: 'link', 'data-ply': i + 1, onclick: () => onPick(sans.slice(0, i + 1).join(' ')) }, lineMove(i, san))]),
  );
}

/** A server's sentence whose `backticked` parts are commands: those become <code> (as text), the rest plain text. */
export function prose(text: string): Array<Node | string> {
  return text.split(/`([^`]+)`/).map((part, i) => (i % 2 ? h('code', {}, part) : part));
}

/** A time for a narrow column: the day and the time each kept whole ("2026-11-11" over "17:00 UTC" when it must wrap, never four lines). */
export function stamp(iso: string | null | undefined): HTMLElement {
  if (!iso) return h('span', {}, when(iso));
  return h('span', { class: 'stamp' }, h('span', { class: 'nowrap' }, day(iso)), ' ', h('span', { class: 'nowrap' }, when(iso).slice(11)));
}

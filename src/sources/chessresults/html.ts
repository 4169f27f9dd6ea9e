/**
 * Just enough HTML reading for chess-results pages: headings, and the `CRs1` data tables cell by cell.
 * Tolerant of the site's quirks (attribute-less junk such as `<td & colsp & class="CRc">`, `Class=` in
 * capitals, `&frac12;`, names written with `&uuml;` or `&#x159;`), strict about structure: anything
 * unexpected is for the caller to refuse.
 * See CHESS-RESULTS.md, section A.3 (kept with the saved pages in test/fixtures/sources/chessresults/).
 */
import { decodeHTML } from 'entities';

/**
 * Every HTML5 named entity (`&Ouml;`, `&scaron;`, …, and the legacy ones written without `;`) and every
 * numeric one (`&#350;`, `&#x159;`), decoded as a browser would, by the `entities` package.
 */
export function decodeEntities(s: string): string {
  return decodeHTML(s);
}

/** Visible text of an HTML fragment: tags dropped, entities decoded, whitespace collapsed. */
export function textOf(fragment: string): string {
  return decodeEntities(fragment.replace(/<[^>]*>/g, ' ')).replace(/\s+/g, ' ').trim();
}

export interface Cell {
  text: string;
  /** `snr=` of a player link in the cell (the starting number), when there is one. */
  snr: number | null;
}

export interface Table {
  header: string[];
  rows: Cell[][];
}

function cellsOf(rowHtml: string): Cell[] {
  const cells: Cell[] = [];
  for (const m of rowHtml.matchAll(/<t[dh](?:\s[^>]*)?>([\s\S]*?)<\/t[dh]>/gi)) {
    const snr = /[?&;]snr=(\d+)/i.exec(m[1]);
    cells.push({ text: textOf(m[1]), snr: snr ? Number(snr[1]) : null });
  }
  return cells;
}

/** Every `<table class="CRs1">` in the page: first row as header, the rest as data rows. */
export function crTables(html: string): Table[] {
  const tables: Table[] = [];
  const open = /<table\b[^>]*\bclass\s*=\s*["']?CRs1\b[^>]*>/gi;
  for (const m of html.matchAll(open)) {
    const start = m.index + m[0].length;
    const end = html.toLowerCase().indexOf('</table>', start);
    if (end < 0) continue;
    const body = html.slice(start, end);
    const rows = body.split(/<tr\b/i).slice(1).map(cellsOf);
    if (rows.length === 0) continue;
    tables.push({ header: rows[0].map((c) => c.text), rows: rows.slice(1) });
  }
  return tables;
}

export function headings(html: string, level: 'h2' | 'h3'): string[] {
  const re = new RegExp(`<${level}\\b[^>]*>([\\s\\S]*?)</${level}>`, 'gi');
  return [...html.matchAll(re)].map((m) => textOf(m[1]));
}

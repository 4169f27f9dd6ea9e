/** One table of `npm run bench`: each benchmark module exports `run(): Promise<BenchTable[]>`. */
export interface BenchTable {
  title: string;
  columns: string[];
  rows: Array<Array<string | number>>;
  /** Anything a reader needs to interpret the figures (machine, budget, data size). */
  notes?: string[];
}

export function percentile(sortedMs: number[], p: number): number {
  if (sortedMs.length === 0) return NaN;
  const i = Math.min(sortedMs.length - 1, Math.max(0, Math.ceil((p / 100) * sortedMs.length) - 1));
  return sortedMs[i];
}

export function formatTable(t: BenchTable): string {
  const cells = [t.columns, ...t.rows.map((r) => r.map((c) => (typeof c === 'number' ? fmt(c) : c)))];
  const widths = t.columns.map((_, i) => Math.max(...cells.map((r) => String(r[i] ?? '').length)));
  const line = (r: Array<string | number>) => `| ${r.map((c, i) => String(c ?? '').padEnd(widths[i])).join(' | ')} |`;
  return [
    `### ${t.title}`,
    line(t.columns),
    `|${widths.map((w) => '-'.repeat(w + 2)).join('|')}|`,
    ...cells.slice(1).map(line),
    ...(t.notes ?? []).map((n) => `- ${n}`),
  ].join('\n');
}

function fmt(n: number): string {
  if (!Number.isFinite(n)) return String(n);
  if (Number.isInteger(n)) return String(n);
  return Math.abs(n) >= 100 ? n.toFixed(0) : Math.abs(n) >= 1 ? n.toFixed(2) : n.toFixed(3);
}

import type { z } from 'zod';

/** At most this many faults are named in one refusal. */
const MAX_NAMED = 8;

type Issue = z.core.$ZodIssue;

/**
 * What is wrong with a refused fishnet body, field by field (`analysis[3].score.cp: Too big…`), for the 400
 * a worker reads. For a union (a position entry, a score) it names the faults of the form the value
 * came closest to: the branch whose faults are all inside the value, fewest first; when every form
 * fails at the value itself, the union's own sentence.
 */
export function describeProtocolIssues(error: z.ZodError): string {
  const out: string[] = [];
  for (const issue of error.issues) collect(issue, [], out);
  const named = out.slice(0, MAX_NAMED);
  return named.join('; ') + (out.length > MAX_NAMED ? `; and ${out.length - MAX_NAMED} more` : '');
}

function collect(issue: Issue, base: PropertyKey[], out: string[]): void {
  const path = [...base, ...issue.path];
  if (issue.code === 'invalid_union') {
    const branches = (issue as { errors: Issue[][] }).errors.filter((b) => b.length && b.every((i) => i.path.length > 0 || i.code === 'invalid_union'));
    if (branches.length) {
      const best = branches.reduce((a, b) => (b.length < a.length ? b : a));
      for (const i of best) collect(i, path, out);
      return;
    }
  }
  out.push(`${render(path)}: ${issue.message}`);
}

function render(path: PropertyKey[]): string {
  let s = '';
  for (const p of path) s += typeof p === 'number' ? `[${p}]` : s ? `.${String(p)}` : String(p);
  return s || 'body';
}

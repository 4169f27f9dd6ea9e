import { expect, test } from 'vitest';
import { z } from 'zod';
import { getChessStats } from '../../tools/aggregates/get_chess_stats.js';
import { getProblemLines } from '../../tools/aggregates/get_problem_lines.js';
import { getPuzzleStats } from '../../tools/aggregates/get_puzzle_stats.js';
import { getRatingProgress } from '../../tools/aggregates/get_rating_progress.js';
import { getWeeklyReport } from '../../tools/aggregates/get_weekly_report.js';

type Json = { description?: string; properties?: Record<string, Json>; items?: Json; anyOf?: Json[]; $ref?: string };

/** Paths of output properties an agent would see without a description. */
function undescribed(node: Json, path: string, defs: Record<string, Json>, out: string[]) {
  const resolve = (n: Json): Json => (n.$ref ? defs[n.$ref.split('/').pop()!] : n);
  const n = resolve(node);
  for (const [key, raw] of Object.entries(n.properties ?? {})) {
    const p = resolve(raw);
    const described = raw.description ?? p.description ?? p.anyOf?.map(resolve).find((b) => b.description)?.description;
    if (!described) out.push(`${path}.${key}`);
    undescribed(p, `${path}.${key}`, defs, out);
    for (const b of p.anyOf ?? []) undescribed(resolve(b), `${path}.${key}`, defs, out);
    if (p.items) undescribed(resolve(p.items), `${path}.${key}[]`, defs, out);
  }
}

test.each([getChessStats, getRatingProgress, getProblemLines, getPuzzleStats, getWeeklyReport].map((t) => [t.name, t] as const))(
  '%s: every output field is described for the agent',
  (_, t) => {
    const schema = z.toJSONSchema(t.output, { io: 'output' }) as Json & { $defs?: Record<string, Json> };
    const missing: string[] = [];
    undescribed(schema, t.name, schema.$defs ?? {}, missing);
    expect(missing).toEqual([]);
  },
);

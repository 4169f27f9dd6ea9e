import type { z } from 'zod';
import { AnalysisSubmission } from '../../../schemas/fishnet.js';
import type { StoredAnalysis, StoredPosition } from '../../chess/engineOutput.js';
import { checkSubmission } from '../../chess/workerAnalysis.js';
import { analysisRow, type NewAnalysisRow } from '../review/index.js';
import { describeProtocolIssues } from './issues.js';

/**
 * Everything a submission costs in CPU, in one pure step (issue 44 item 1): its shape (schemas/fishnet.ts), its
 * chess (src/chess/workerAnalysis.ts: every kept PV replayed) and, when it is whole, the review's row with its
 * derivation (review/records.ts analysisRow). Run off the main thread (offThread.ts), so no submission, however
 * large or wrong, holds the event loop; the store is read before and written after, on the main thread.
 */
export interface JudgementInput {
  body: unknown;
  startFen: string;
  moves: string[];
  nodes: number;
  /** The positions the owner already holds (openingLines.ts), as pairs: they cross a thread as a plain array. */
  known: Array<[number, StoredPosition]>;
  userId: string;
  movesKey: string;
  key: { id: string; name: string };
  userAgent: string;
  at: string;
}

export type Judgement =
  | { kind: 'refused'; what: string }
  | { kind: 'progress'; done: number }
  | { kind: 'whole'; row: NewAnalysisRow; positions: StoredPosition[]; searched: number; searchMs: number; nodes: number };

export function judgeSubmission(input: JudgementInput): Judgement {
  const parsed = AnalysisSubmission.safeParse(input.body);
  if (!parsed.success) return { kind: 'refused', what: describeProtocolIssues(parsed.error as z.ZodError) };
  const check = checkSubmission(input.startFen, input.moves, parsed.data.analysis, { nodesAsked: input.nodes, known: new Map(input.known) });
  if (!check.ok) return { kind: 'refused', what: check.faults.join('; ') };
  if (!check.complete) return { kind: 'progress', done: check.done };
  const agent = input.userAgent.slice(0, 200);
  const flavor = parsed.data.stockfish.flavor;
  const analysis: StoredAnalysis = {
    // The engine as the worker named it; no measured scale applies to it (src/chess/calibration.ts: factor 1).
    engine: { name: agent || 'fishnet client', version: flavor, network: null },
    worker: { key: input.key.name, keyId: input.key.id, userAgent: agent, flavor },
    budget: { nodesPerPosition: input.nodes, multiPv: 1, search: 'fishnet' },
    startFen: input.startFen,
    movesUci: input.moves,
    positions: check.positions,
    analysedAt: input.at,
  };
  let searched = 0;
  let searchMs = 0;
  let nodes = 0;
  for (const e of parsed.data.analysis) {
    if (e === null || 'skipped' in e) continue;
    searched += 1;
    searchMs += e.time ?? 0;
    nodes += e.nodes ?? 0;
  }
  return { kind: 'whole', row: analysisRow(input.userId, input.movesKey, analysis, input.at), positions: check.positions, searched, searchMs, nodes };
}

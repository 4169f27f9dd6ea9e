import { monitorEventLoopDelay } from 'node:perf_hooks';
import { issueWorkerKey } from '../../src/auth/workerKeys.js';
import { movesKey, START_FEN } from '../../src/chess/pgn.js';
import { systemClock } from '../../src/clock.js';
import { listen } from '../../src/http/listen.js';
import { insertReviewJob, REVIEW_PRIORITY } from '../../src/services/review/queue.js';
import { tools } from '../../tools/index.js';
import { makeTestApp } from '../helpers/app.js';
import type { BenchTable } from './table.js';
import { worstSubmission } from './worstSubmission.js';

/**
 * Issue 44 item 1, measured inside the server: the HTTP surface in this process (the sources, a store in a temporary
 * folder) and node's own event-loop delay histogram (perf_hooks.monitorEventLoopDelay, 1 ms resolution) over each
 * submission, from the request's first byte to its answer. The outside probe of worker-load's first table also counts
 * the time the machine leaves either process waiting for a core; this counts only what held this event loop (GC
 * pauses included). The body is encoded before the measurement starts, so only the client's sending shares the loop.
 */
export async function eventLoopHold(games: readonly string[][]): Promise<BenchTable> {
  const app = makeTestApp({ clock: systemClock });
  const q = app.addUser('Q');
  const key = issueWorkerKey(app.deps.store, app.deps.clock, q.user.id, 'q-box').key;
  const server = await listen(tools, app.deps, { host: '127.0.0.1', port: 0 });
  const histogram = monitorEventLoopDelay({ resolution: 1 });
  const held = async <T>(during: () => Promise<T>) => {
    histogram.reset();
    histogram.enable();
    const out = await during();
    histogram.disable();
    return { out, maxMs: histogram.max / 1e6 };
  };
  const post = (path: string, body: string) => fetch(`${server.url}/fishnet${path}`, { method: 'POST', headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' }, body });
  const rows: BenchTable['rows'] = [];
  try {
    for (let k = 0; k < 2; k++) rows.push(['no submission (idle, 3 s)', '—', '—', (await held(() => new Promise((r) => setTimeout(r, 3000)))).maxMs.toFixed(1)]);
    for (const [i, moves] of games.slice(0, 2).entries()) {
      for (const refused of [false, true]) {
        insertReviewJob(app.deps.store, app.deps.clock, { userId: q.user.id, subjectKind: 'study', subjectId: `hold-${i}-${refused}`, movesKey: movesKey(START_FEN, [...moves]), startFen: START_FEN, movesUci: [...moves], priority: REVIEW_PRIORITY.request });
        const work = (await (await post('/acquire', '{}')).json()) as { work: { id: string } };
        const body = JSON.stringify(worstSubmission(moves, refused));
        const { out, maxMs } = await held(async () => {
          const res = await post(`/analysis/${work.work.id}?stop=true`, body);
          await res.arrayBuffer();
          return res.status;
        });
        rows.push([`${moves.length} plies, every PV 246 plies${refused ? ', last entry refused' : ''}`, Math.round(body.length / 1024), out, maxMs.toFixed(1)]);
        // As worker-load's first table: the refused job dropped and the key's refusals forgotten, so each row is its own.
        app.deps.store.sqlite.prepare("DELETE FROM review_jobs WHERE user_id = ? AND status = 'queued'").run(q.user.id);
        app.deps.store.sqlite.prepare('UPDATE worker_keys SET failures = 0, failed_at = NULL WHERE user_id = ?').run(q.user.id);
      }
    }
  } finally {
    await server.close();
    await app.close();
  }
  return {
    title: 'The same submissions measured inside the server (issue 44 item 1): the event loop’s longest delay while each is judged',
    columns: ['submission', 'KiB', 'status', 'longest event-loop delay ms'],
    rows,
    notes: ['Goal ≤ 50 ms. perf_hooks.monitorEventLoopDelay over the submission, the server in this process (tsx, the sources), its judgement on its worker thread (src/services/workers/offThread.ts).'],
  };
}

import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, describe, expect, test } from 'vitest';
import { movesKey, START_FEN } from '../../../src/chess/pgn.js';
import { fixedClock } from '../../../src/clock.js';
import { createUser } from '../../../src/services/accounts/accounts.js';
import { ReviewQueue, insertReviewJob, leaseProcessGone } from '../../../src/services/review/queue.js';
import { openStore, storeFile } from '../../../src/store/db.js';
import { makeAnalysis } from '../../helpers/analysis.js';

const worker = fileURLToPath(new URL('../../helpers/reviewWorker.ts', import.meta.url));
const clock = fixedClock('2026-11-20T12:00:00Z');
const cleanup: Array<() => unknown> = [];
afterEach(async () => {
  for (const fn of cleanup.splice(0).reverse()) await fn();
});

describe('a worker process killed with -9 mid-review', () => {
  test('the next process takes the job at once, runs the engine once more, and completes it exactly once', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'cfp-kill9-'));
    const file = storeFile(dir);
    const store = openStore(file);
    cleanup.push(() => rmSync(dir, { recursive: true, force: true }), () => store.close());
    const user = createUser(store, clock, { displayName: 'O', email: 'o@example.test' });
    const analysis = makeAnalysis({ sanMoves: ['e4', 'e5', 'Nf3'], evals: [20, 25, 20, 30] });
    const key = movesKey(START_FEN, analysis.movesUci);
    const job = insertReviewJob(store, clock, { userId: user.id, subjectKind: 'game', subjectId: 'g1', movesKey: key, startFen: START_FEN, movesUci: analysis.movesUci });

    // A real second process claims the job and is killed while its engine works.
    const child = spawn(process.execPath, ['--import', 'tsx', worker, file], { stdio: ['ignore', 'pipe', 'pipe'] });
    cleanup.push(() => child.kill('SIGKILL'));
    const owner = await new Promise<string>((resolve, reject) => {
      let out = '';
      child.stdout!.on('data', (d: Buffer) => {
        out += d.toString();
        const m = /analysing (\S+)/.exec(out);
        if (m) resolve(m[1]);
      });
      child.once('exit', (code) => reject(new Error(`worker exited ${code} before analysing: ${out}`)));
    });
    const held = store.sqlite.prepare('SELECT status, lease_owner AS owner, attempts FROM review_jobs WHERE id = ?').get(job.id);
    expect(held).toEqual({ status: 'running', owner, attempts: 1 });
    expect(leaseProcessGone(owner)).toBe(false);
    const exited = new Promise((r) => child.once('exit', r));
    child.kill('SIGKILL');
    await exited;
    expect(leaseProcessGone(owner)).toBe(true);

    // Its heartbeat is seconds old, not stale: only the dead process lets the next one take the job now.
    const seen: string[] = [];
    const next = new ReviewQueue(store, clock, () => ({
      analyse: async (_fen, moves) => (seen.push(moves.join(' ')), analysis),
      close: async () => {},
    }));
    expect(await next.runOnce()).toBe(true);
    expect(seen).toEqual([analysis.movesUci.join(' ')]);
    expect(store.sqlite.prepare('SELECT status, attempts, lease_owner AS owner FROM review_jobs').all()).toEqual([{ status: 'complete', attempts: 2, owner: null }]);
    expect(store.sqlite.prepare('SELECT user_id AS u FROM analyses WHERE moves_key = ?').all(key)).toEqual([{ u: user.id }]);
    // Nothing is left to run.
    expect(await next.runOnce()).toBe(false);
  }, 30_000);
});

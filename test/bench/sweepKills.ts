import type { ChildProcess } from 'node:child_process';
import type { HeldJob } from './sweepFuzz.js';
import { type Counted, counted, extraStores, fishnet, jobMoves, keyOf, rand, requestReviews, storedCounts, type Sweep, unreviewed, workerKey, worst } from './sweepKit.js';
import { countingProxy, readStore, reviewRows, Tally, workerStores } from './sweepRig.js';
import { startWorker, stopChild } from './workerFleet.js';

/**
 * kill -9 trials, alternating: of a real `chess-footprint worker` holding a job (at a random moment of its search), and
 * of the server while the sweep's own large submission is in flight (at a random moment of its judgement), the server
 * then started again on the same port and the submission sent again, as a worker retries. The real worker keeps
 * working through P's queue across the server's restarts. At the end every review asked for must be stored, once.
 */
export async function kills(s: Sweep): Promise<Counted[]> {
  const trials = Number(process.env.CFP_BENCH_SWEEP_TRIALS ?? 46);
  const tw = new Tally();
  const ts = new Tally();
  const before = workerStores(s.dir, s.p.id);
  const wKey = await workerKey(s, s.p, 'p-worker');
  const subKey = await workerKey(s, s.p, 'p-submitter');
  const asked = new Set<string>();
  const ensureQueued = async (t: Tally, n: number) => {
    const db = readStore(s.dir);
    const { queued } = db.prepare("SELECT count(*) AS queued FROM review_jobs WHERE user_id = ? AND status = 'queued'").get(s.p.id) as { queued: number };
    db.close();
    if (queued >= n) return;
    const more = unreviewed(s, s.p, n - queued);
    await requestReviews(s, t, s.p, more.map((g) => g.id));
    for (const g of more) asked.add(g.movesKey);
  };
  // Reviews of P's already in the queue (the demo's, earlier rows' leftovers) are the worker's to finish too.
  const dbq = readStore(s.dir);
  for (const r of dbq.prepare("SELECT moves_key AS k FROM review_jobs WHERE user_id = ? AND status IN ('queued', 'running')").all(s.p.id) as Array<{ k: string }>) asked.add(r.k);
  dbq.close();
  const submitted = { lines: 0 };
  const spawnWorker = (url: string) => startWorker(url, wKey.key, { engines: 1, engine: s.engine, log: (l) => (/^job \S+: .*submitted$/.test(l) ? (submitted.lines += 1) : undefined) });
  const heldBy = async (keyId: string, timeoutMs: number): Promise<string | null> => {
    const end = Date.now() + timeoutMs;
    while (Date.now() < end) {
      const db = readStore(s.dir);
      const row = db.prepare("SELECT moves_key AS k FROM review_jobs WHERE status = 'running' AND lease_owner LIKE 'fishnet:' || ? || ':%'").get(keyId) as { k: string } | undefined;
      db.close();
      if (row) return row.k;
      await new Promise((r) => setTimeout(r, 100));
    }
    return null;
  };
  // The window a kill of the server falls in: one such submission's answer time, measured first (and stored).
  await ensureQueued(ts, 2);
  const acked: string[] = [];
  const cutNoAck: string[] = [];
  const calib = JSON.parse((await fishnet(s, ts, subKey.key, '/acquire')).text) as HeldJob;
  asked.add(keyOf(calib));
  const calibBody = worst(jobMoves(calib), false);
  const c = await fishnet(s, ts, subKey.key, `/analysis/${calib.work.id}?stop=true`, calibBody);
  if (c.status === 204) acked.push(keyOf(calib));
  // Each kill falls a random moment within 0.9 × the answer time expected for the body's size (the quickest per byte
  // seen so far), so that most land before the answer.
  let perByte = c.ms / calibBody.length;
  let workerKills = 0;
  let workerKillsHolding = 0;
  let serverKills = 0;
  const retried = new Map<string, number>();
  const proxy = await countingProxy(() => s.server.url, tw);
  let worker: ChildProcess = spawnWorker(proxy.url);
  for (let i = 0; i < trials; i++) {
    if (i % 2 === 0) {
      await ensureQueued(tw, 3);
      const held = await heldBy(wKey.id, 30_000);
      if (held) {
        asked.add(held);
        workerKillsHolding += 1;
      }
      await new Promise((r) => setTimeout(r, rand(1500)));
      worker.kill('SIGKILL');
      await new Promise((r) => worker.once('exit', r));
      workerKills += 1;
      worker = spawnWorker(proxy.url);
    } else {
      await ensureQueued(ts, 3);
      const a = await fishnet(s, ts, subKey.key, '/acquire');
      if (a.status !== 202) continue;
      const job = JSON.parse(a.text) as HeldJob;
      asked.add(keyOf(job));
      const body = worst(jobMoves(job), false);
      const inFlight = fishnet(s, ts, subKey.key, `/analysis/${job.work.id}?stop=true`, body);
      await new Promise((r) => setTimeout(r, rand(0.9 * perByte * body.length)));
      await s.server.kill9();
      serverKills += 1;
      const first = await inFlight;
      if (first.status) perByte = Math.min(perByte, first.ms / body.length);
      await s.server.start();
      const second = first.status === 0 ? await fishnet(s, ts, subKey.key, `/analysis/${job.work.id}?stop=true`, body) : null;
      const status = second?.status ?? first.status;
      retried.set(`${first.status || 'cut'}→${second ? second.status : '—'}`, (retried.get(`${first.status || 'cut'}→${second ? second.status : '—'}`) ?? 0) + 1);
      if (first.status === 204 || second?.status === 204) acked.push(keyOf(job));
      else if (status === 404) cutNoAck.push(keyOf(job));
      else ts.undocumented += 1;
    }
  }
  // Every review asked for is then completed by the real worker (leases of killed workers run out: TIMEOUT_MS × positions).
  const settleEnd = Date.now() + Number(process.env.CFP_BENCH_SWEEP_SETTLE_SECONDS ?? 300) * 1000;
  let rows = reviewRows(s.dir, s.p.id, asked);
  while ([...rows.values()].some((n) => n === 0) && Date.now() < settleEnd) {
    await new Promise((r) => setTimeout(r, 2000));
    rows = reviewRows(s.dir, s.p.id, asked);
  }
  await stopChild(worker);
  await proxy.close();
  const lost = [...rows.values()].filter((n) => n === 0).length;
  const dup = [...rows.values()].reduce((n, k) => n + Math.max(0, k - 1), 0);
  const acks = storedCounts(s, s.p, acked, []);
  const extra = extraStores(s, s.p, before);
  return [
    counted('kill -9 of a worker mid-job', tw, {}, [
      `${workerKills} kills of \`chess-footprint worker\` (1 engine, ${s.engine ?? 'bundled'}) ${workerKillsHolding} of them while it held a job (a random 0–1.5 s after the store showed the lease), a new worker started at once with the same key; its job lines said "submitted" ${submitted.lines} times. requests here: every request of the workers (through a counting proxy in front of the server, which closes the worker's connection without an answer when the server is down: "no answer" is the server's kill -9 on the next row) and the sweep's review requests: ${tw.summary()}. Lost and duplicated rows of both kinds of trial are counted together on the next row (one queue).`,
    ]),
    counted('kill -9 of the server mid-submission', ts, { lost: lost + acks.lost, duplicated: dup + acks.duplicated + extra }, [
      `${serverKills} kills of the server a random moment after the sweep sent a whole analysis with 246-ply PVs (within 0.9 × the answer time expected for its size: the first, uncut, ${Math.round(calibBody.length / 1024)} KiB in ${c.ms.toFixed(0)} ms; the quickest ${(perByte * 1024).toFixed(1)} ms per KiB), the server started again on the same port, the submission sent again when the first got no answer: first→retry ${[...retried].map(([k, n]) => `${k} ×${n}`).join(', ')} ("cut": killed in flight; "204→—": answered before the kill, which then fell on the worker's work). ${acked.length} acknowledged (204), ${cutNoAck.length} answered 404 on the retry (stored before the kill, or handed out again). The real worker ran throughout.`,
      `At the end (settled after the killed workers' leases ran out): ${asked.size} reviews asked for in these two rows, ${[...rows.values()].filter((n) => n === 1).length} stored once, ${lost} missing, ${dup} extra rows; acknowledged but absent ${acks.lost}; stored submissions past worker reviews ${extra}.`,
    ]),
  ];
}

import { replaySan, START_FEN } from '../../src/chess/pgn.js';
import { documented, fuzzCases, validEntries, type HeldJob } from './sweepFuzz.js';
import { type Counted, counted, extraStores, fishnet, fixtureGames, forgetRefusals, fromStore, heldJobRow, importForQ, jobMoves, keyOf, ownerReads, requestReviews, storedCounts, type Sweep, unreviewed, workerKey, worst } from './sweepKit.js';
import { readStore, reviewRows, send, Tally, workerStores } from './sweepRig.js';
import { percentile } from './table.js';
import { cliRun } from './workerFleet.js';

/** The sweep's families on /fishnet/ (sweep.ts): cross-owner ids, the longest PVs, fuzzed submissions, a revoked key. */
/** Q's key and token against P's jobs and games, answers compared with an unknown id's; P's job unchanged, then stored. */
export async function crossOwner(s: Sweep): Promise<Counted[]> {
  const t = new Tally();
  const rounds = 20;
  const pKey = await workerKey(s, s.p, 'p-box');
  const qKey = await workerKey(s, s.q, 'q-cross');
  const pGames = unreviewed(s, s.p, 2);
  const before = workerStores(s.dir, s.p.id);
  await requestReviews(s, t, s.p, pGames.map((g) => g.id));
  const a = await fishnet(s, t, pKey.key, '/acquire');
  if (a.status !== 202) throw new Error(`P's key could not acquire: ${a.status} ${a.text}`);
  const job = JSON.parse(a.text) as HeldJob;
  const jobRow = () => heldJobRow(s, job.work.id);
  const pRowsBefore = reviewRows(s.dir, s.p.id, [keyOf(job)]).get(keyOf(job));
  const held = jobRow();
  const valid = { stockfish: { flavor: 'nnue' }, analysis: validEntries(job) };
  let leaks = 0;
  const ms = { theirs: [] as number[], unknown: [] as number[] };
  const differ = new Set<string>();
  const same = (x: string, idX: string, y: string, idY: string) => x.split(idX.slice(0, 24)).join('ID') === y.split(idY.slice(0, 24)).join('ID');
  for (let i = 0; i < rounds; i++) {
    const unknown = `${'U'.repeat(20)}${String(i).padStart(2, '0')}`;
    for (const [what, path] of [
      ['analysis', '/analysis/'],
      ['abort', '/abort/'],
    ] as const) {
      const theirs = await fishnet(s, t, qKey.key, `${path}${job.work.id}`, what === 'analysis' ? valid : {});
      const other = await fishnet(s, t, qKey.key, `${path}${unknown}`, what === 'analysis' ? valid : {});
      ms.theirs.push(theirs.ms);
      ms.unknown.push(other.ms);
      if (theirs.status < 300) leaks += 1;
      if (theirs.status !== other.status || !same(theirs.text, job.work.id, other.text, unknown)) (differ.add(what), (t.undocumented += 1));
    }
    const game = await send(t, `${s.server.url}/api/v1/me/games/${encodeURIComponent(pGames[0].id)}`, { headers: { authorization: `Bearer ${s.q.token}` } });
    const nogame = await send(t, `${s.server.url}/api/v1/me/games/${'g'.repeat(pGames[0].id.length)}`, { headers: { authorization: `Bearer ${s.q.token}` } });
    if (game.status < 300) leaks += 1;
    if (game.status !== nogame.status) (differ.add('get_game'), (t.undocumented += 1));
  }
  // Q's own queue is empty: its acquire must not hand out P's work, and its status must show none of P's jobs.
  const qa = await fishnet(s, t, qKey.key, '/acquire');
  if (qa.status !== 204) leaks += 1;
  const st = await send(t, `${s.server.url}/fishnet/status`, { headers: { authorization: `Bearer ${qKey.key}` } });
  const figures = st.status === 200 ? (JSON.parse(st.text) as { analysis: Record<string, { acquired: number; queued: number }> }).analysis : null;
  if (!figures || Object.values(figures).some((f) => f.acquired || f.queued)) leaks += 1;
  const unchanged = jobRow() === held && reviewRows(s.dir, s.p.id, [keyOf(job)]).get(keyOf(job)) === pRowsBefore;
  if (!unchanged) leaks += 1;
  // P's own key then stores it: acknowledged once, stored once.
  const done = await fishnet(s, t, pKey.key, `/analysis/${job.work.id}?stop=true`, valid);
  const counts = storedCounts(s, s.p, done.status === 204 ? [keyOf(job)] : [], done.status === 204 ? [] : [keyOf(job)]);
  if (done.status !== 204) t.undocumented += 1;
  const med = (xs: number[]) => percentile([...xs].sort((x, y) => x - y), 50).toFixed(1);
  return [
    counted('item 4: cross-owner (/fishnet/ and REST)', t, { ...fromStore(counts, extraStores(s, s.p, before)), leaks }, [
      `${rounds} rounds of Q's worker key submitting a valid analysis to P's held job id and aborting it, and Q's token reading P's game, each beside the same request with an unknown id: answers ${differ.size ? `DIFFERED for ${[...differ].join(', ')}` : 'identical in status and body (ids aside)'}; median ${med(ms.theirs)} ms for P's ids, ${med(ms.unknown)} ms for unknown ones. Q's acquire (Q's queue empty): ${qa.status}; Q's /fishnet/status: ${st.text}. P's held job ${unchanged ? 'unchanged (status, lease, heartbeat, progress) and P\'s reviews untouched' : 'CHANGED'}; P's key then stored it (${done.status}).`,
    ]),
  ];
}

/** Item 1: the biggest legal submissions the schema allows, and a refused one repeated by Q's key while P reads. */
export async function longPvs(s: Sweep): Promise<Counted[]> {
  const t = new Tally();
  const seconds = Number(process.env.CFP_BENCH_SWEEP_LOOP_SECONDS ?? 10);
  const games = await importForQ(s, fixtureGames().slice(0, 3), 'sweep long');
  const before = workerStores(s.dir, s.q.id);
  const qKey = await workerKey(s, s.q, 'q-box');
  const acked: string[] = [];
  const refused: string[] = [];
  const sizes: string[] = [];
  // One review asked at a time, so that each acquire hands out the game meant.
  for (const g of games.slice(1).reverse()) {
    await requestReviews(s, t, s.q, [g.id]);
    const a = await fishnet(s, t, qKey.key, '/acquire');
    const job = JSON.parse(a.text) as HeldJob;
    const body = worst(jobMoves(job), false);
    const r = await fishnet(s, t, qKey.key, `/analysis/${job.work.id}?stop=true`, body);
    (r.status === 204 ? acked : refused).push(keyOf(job));
    if (r.status !== 204) t.undocumented += 1;
    sizes.push(`${jobMoves(job).length} plies, ${Math.round(body.length / 1024)} KiB: ${r.status} in ${r.ms.toFixed(0)} ms`);
  }
  // The refused body is built before P's reads start: building it is the sweep's own CPU work (a cycle searched for
  // every position), which would otherwise hold the reads' timing in this process.
  await requestReviews(s, t, s.q, [games[0].id]);
  const loop = new Tally();
  const firstJob = JSON.parse((await fishnet(s, loop, qKey.key, '/acquire')).text) as HeldJob;
  let id = firstJob.work.id;
  refused.push(keyOf(firstJob));
  const bad = worst(jobMoves(firstJob), true);
  const reads = ownerReads(s, s.p);
  const end = performance.now() + seconds * 1000;
  while (performance.now() < end) {
    // Submitted whatever acquire said, as a key that ignores Retry-After would: it meets a 400 or a 404.
    const r = await fishnet(s, loop, qKey.key, `/analysis/${id}`, bad);
    if (r.status !== 400 && r.status !== 404) loop.undocumented += 1;
    const a = await fishnet(s, loop, qKey.key, '/acquire');
    if (a.status === 202) {
      const job = JSON.parse(a.text) as HeldJob;
      id = job.work.id;
      refused.push(keyOf(job));
    } else if (a.status !== 429 && a.status !== 204) loop.undocumented += 1;
  }
  const r = await reads.stop();
  const counts = storedCounts(s, s.q, acked, refused);
  const loopSummary = loop.summary();
  t.merge(loop);
  t.merge(r.t);
  return [
    counted('item 1: longest legal PVs, refused loop', t, fromStore(counts, extraStores(s, s.q, before)), [
      `Q's key submitted the worst legal analysis of the fixture's two longest games (every PV 246 plies, a reversible knight cycle, Stockfish's MAX_PLY, the schema's bound): ${sizes.join('; ')}. Then, for ${seconds} s, acquire and the same for the third game with its last searched entry {"mate": 0} (refused), in a loop: ${loopSummary}.`,
      r.note,
    ]),
  ];
}

/** The fuzzed submissions (sweepFuzz.ts), each to a job just acquired by Q's key; the store checked at the end. */
export async function fuzz(s: Sweep): Promise<Counted[]> {
  const t = new Tally();
  const games = fixtureGames();
  const seen = new Set<string>();
  const short: string[][] = [];
  for (const [i, g] of games.entries()) {
    const cut = g.slice(0, 8 + (i % 9));
    const uci = replaySan(cut, START_FEN)?.map((p) => p.uci).join(' ');
    if (uci && !seen.has(uci)) (seen.add(uci), short.push(cut));
    if (short.length === 30) break;
  }
  const qGames = await importForQ(s, short, 'sweep short');
  const before = workerStores(s.dir, s.q.id);
  await requestReviews(s, t, s.q, qGames.map((g) => g.id));
  const qKey = await workerKey(s, s.q, 'q-fuzz');
  // P holds a job meanwhile: its id is one of the ids Q's key tries.
  const pKey = await workerKey(s, s.p, 'p-held');
  await requestReviews(s, t, s.p, unreviewed(s, s.p, 1).map((g) => g.id));
  const pa = await fishnet(s, t, pKey.key, '/acquire');
  const pJob = JSON.parse(pa.text) as HeldJob;
  const pHeld = () => heldJobRow(s, pJob.work.id);
  let leaks = 0;
  let storedId = '';
  const cases = fuzzCases({ otherOwnersId: () => pJob.work.id, storedId: () => storedId || 'none' });
  const acked: string[] = [];
  const refused: string[] = [];
  const off: string[] = [];
  let noJob = 0;
  let allListed = 0;
  for (const c of cases) {
    forgetRefusals(s, qKey.id);
    const a = await fishnet(s, t, qKey.key, '/acquire');
    if (a.status !== 202) {
      noJob += 1;
      continue;
    }
    const job = JSON.parse(a.text) as HeldJob;
    const id = c.id(job);
    const pBefore = id === pJob.work.id ? pHeld() : null;
    const r = await fishnet(s, t, qKey.key, `/analysis/${id}${c.query ?? '?stop=true'}`, c.body(job), c.contentType);
    if (pBefore !== null && (r.status < 300 || pHeld() !== pBefore)) leaks += 1;
    const expect = c.expectFor?.(job) ?? c.expect;
    if (expect !== c.expect) allListed += 1;
    if (r.status !== documented[expect]) (off.push(`${c.name}: ${r.status}`), (t.undocumented += 1));
    // A whole analysis to the held id, acknowledged, must be stored once; anything else must store nothing.
    const whole = id === job.work.id && expect !== 'progress' && expect !== 'badQuery';
    if (r.status === 204 && whole) {
      acked.push(keyOf(job));
      storedId ||= job.work.id;
    } else refused.push(keyOf(job));
    // Whatever is still held goes back (a progress report, a refused query, a wrong id): 204 when held, else 404.
    await fishnet(s, t, qKey.key, `/abort/${job.work.id}`, {});
  }
  await fishnet(s, t, pKey.key, `/abort/${pJob.work.id}`, {});
  const counts = storedCounts(s, s.q, acked, refused);
  return [
    counted('fuzzed submissions', t, { ...fromStore(counts, extraStores(s, s.q, before)), leaks }, [
      `${cases.length} cases${noJob ? ` (${noJob} found no job to acquire)` : ''} (sweepFuzz.ts: wrong types, missing fields, Infinity/NaN-ish and huge or negative numbers, bad or illegal UCI, wrong lengths, null entries, truncated JSON, wrong, foreign and stored job ids, bad queries), each to a job Q's key acquired just before (its refusals forgotten in the store first), then an abort of that job: ${t.summary()}. ${acked.length} whole analyses acknowledged over ${counts.acked} move sequences, ${counts.refused} sequences only refused.${off.length ? ` Off the documented answer: ${off.slice(0, 6).join('; ')}${off.length > 6 ? ' …' : ''}.` : ' Every case got the documented status.'}${allListed ? ` ${allListed} "skipped on a position not listed" case(s) met a job whose every position was listed as known (the owner's opening lines), where {"skipped": true} is right: documented 204.` : ''} Q's submission to P's held job: ${leaks ? 'a 2xx or P\'s job CHANGED' : '404, P\'s job unchanged (status, lease, heartbeat)'}.`,
    ]),
  ];
}

/** Item 5: a key revoked (the CLI) while it holds a job: the job acquirable by another key at once, its opening lines gone. */
export async function revokeMidJob(s: Sweep): Promise<Counted[]> {
  const t = new Tally();
  const before = workerStores(s.dir, s.p.id);
  const doomed = await workerKey(s, s.p, 'p-revoked');
  const other = await workerKey(s, s.p, 'p-other');
  await requestReviews(s, t, s.p, unreviewed(s, s.p, 2).map((g) => g.id));
  const lines = () => {
    const db = readStore(s.dir);
    const { n } = db.prepare('SELECT count(*) AS n FROM worker_opening_lines WHERE key_id = ?').get(doomed.id) as { n: number };
    db.close();
    return n;
  };
  const first = JSON.parse((await fishnet(s, t, doomed.key, '/acquire')).text) as HeldJob;
  const stored = await fishnet(s, t, doomed.key, `/analysis/${first.work.id}?stop=true`, { stockfish: { flavor: 'nnue' }, analysis: validEntries(first) });
  const linesBefore = lines();
  const second = JSON.parse((await fishnet(s, t, doomed.key, '/acquire')).text) as HeldJob;
  const half = validEntries(second).map((e, i, all) => (i < all.length / 2 ? null : e));
  const progress = await fishnet(s, t, doomed.key, `/analysis/${second.work.id}`, { stockfish: { flavor: 'nnue' }, analysis: half });
  const revokedAt = performance.now();
  await cliRun(['worker-key', 'revoke', 'p-revoked', '--data-dir', s.dir]);
  const taken = await fishnet(s, t, other.key, '/acquire');
  const afterRevoke = performance.now() - revokedAt;
  const again = taken.status === 202 ? (JSON.parse(taken.text) as HeldJob) : null;
  const released = again !== null && keyOf(again) === keyOf(second);
  const refusedNow = await fishnet(s, t, doomed.key, '/acquire');
  const late = await fishnet(s, t, doomed.key, `/analysis/${second.work.id}`, { stockfish: { flavor: 'nnue' }, analysis: validEntries(second) });
  const linesAfter = lines();
  const done = again ? await fishnet(s, t, other.key, `/analysis/${again.work.id}?stop=true`, { stockfish: { flavor: 'nnue' }, analysis: validEntries(again) }) : null;
  const acked = [...(stored.status === 204 ? [keyOf(first)] : []), ...(done?.status === 204 ? [keyOf(second)] : [])];
  const counts = storedCounts(s, s.p, acked, []);
  if (!released || linesAfter !== 0 || refusedNow.status !== 403 || late.status !== 403) t.undocumented += 1;
  return [
    counted('item 5: key revoked mid-job', t, fromStore(counts, extraStores(s, s.p, before)), [
      `P's key p-revoked stored one job (${stored.status}; ${linesBefore} opening lines left under its key), took a second and reported half of it (${progress.status}); \`worker-key revoke\` (the CLI), then P's other key's acquire ${released ? 'got that very job' : `did NOT get it (${taken.status})`} ${afterRevoke.toFixed(0)} ms after the revoke began (the CLI's start included); the revoked key then met ${refusedNow.status} on acquire and ${late.status} on its late submission; its opening lines: ${linesAfter} left. The other key stored the job (${done?.status ?? '—'}).`,
    ]),
  ];
}

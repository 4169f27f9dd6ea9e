import { worstSubmission } from './worstSubmission.js';

/**
 * The worker key of worker-load's "failing submissions in a loop" row (workerLoad.ts), run as its own process so that
 * its requests, and the 192 KiB body it sends each time, take none of the reading process's event loop:
 * `failingKey.ts URL KEY SECONDS MOVES` (MOVES: the game's UCI moves, space-separated). As fast as it is answered, it
 * acquires, then submits the game's worst refused analysis, whatever acquire said (a key that ignores Retry-After
 * still only meets a 404 or a 400), for SECONDS from printing `ready` (its body built). Then prints its answers'
 * counts as JSON.
 */
const [url, key, seconds, moves] = process.argv.slice(2);
const body = JSON.stringify(worstSubmission(moves.split(' '), true));
const headers = { authorization: `Bearer ${key}`, 'content-type': 'application/json' };
const counts = { submissions: 0, refused: 0, throttled: 0, other: 0 };
process.stdout.write('ready\n');
const until = performance.now() + Number(seconds) * 1000;
let id = '';
while (performance.now() < until) {
  const a = await fetch(`${url}/fishnet/acquire`, { method: 'POST', headers, body: '{}' });
  if (a.status === 202) id = ((await a.json()) as { work: { id: string } }).work.id;
  else {
    await a.body?.cancel();
    if (a.status === 429) counts.throttled += 1;
  }
  const s = await fetch(`${url}/fishnet/analysis/${id || 'none'}`, { method: 'POST', headers, body });
  await s.body?.cancel();
  counts.submissions += 1;
  if (s.status === 400) counts.refused += 1;
  else if (s.status !== 404) counts.other += 1;
}
process.stdout.write(JSON.stringify(counts));

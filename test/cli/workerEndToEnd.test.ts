import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, test } from 'vitest';
import { START_FEN } from '../../src/chess/pgn.js';
import { gamePositions } from '../../src/chess/positions.js';
import { boardAt, playUci } from '../../src/chess/replay.js';
import { engineOutput } from '../../src/services/review/records.js';
import { openStore, storeFile } from '../../src/store/db.js';
import { CLI, cli, start } from '../helpers/cli.js';

// 1.e4 e5 2.Nf3 Nc6 3.Bb5 a6 4.Ba4 Nf6 5.O-O Be7 6.Re1 b5 7.Bb3 d6: 14 plies, 15 positions (3 chunks of fishnet's).
const PGN = `[Event "Club night"]
[Date "2026.11.20"]
[White "Player"]
[Black "Opponent"]
[Result "1/2-1/2"]

1. e4 e5 2. Nf3 Nc6 3. Bb5 a6 4. Ba4 Nf6 5. O-O Be7 6. Re1 b5 7. Bb3 d6 1/2-1/2
`;
const UCI = ['e2e4', 'e7e5', 'g1f3', 'b8c6', 'f1b5', 'a7a6', 'b5a4', 'g8f6', 'e1g1', 'f8e7', 'f1e1', 'b7b5', 'a4b3', 'd7d6'];

describe('chess-footprint worker end to end: serve --engines 0, a worker key, the worker on the bundled engine', () => {
  let dir: string;
  const children: ChildProcess[] = [];
  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'cfp-worker-e2e-'));
  });
  afterEach(async () => {
    for (const c of children.splice(0)) {
      if (c.exitCode !== null || c.signalCode !== null) continue;
      const gone = new Promise((r) => c.once('exit', r));
      c.kill('SIGTERM');
      await gone;
    }
    rmSync(dir, { recursive: true, force: true });
  });

  test('a review asked over REST is taken by the worker, searched the fishnet way and stored as its review', async () => {
    const token = /cfp_[\w-]+/.exec((await cli(['init', '--name', 'Player', '--email', 'player@example.org', '--data-dir', dir])).stdout)![0];
    writeFileSync(join(dir, 'game.pgn'), PGN);
    await cli(['import', join(dir, 'game.pgn'), '--as', 'white', '--data-dir', dir]);
    const key = (await cli(['worker-key', 'create', '--name', 'laptop', '--data-dir', dir])).stdout.trim().split('\n').pop()!;
    const serve = await start(['serve', '--engines', '0', '--data-dir', dir, '--port', '0'], /listening on http:\/\/\S+/, { CFP_WORKER_NODES: '2000' });
    children.push(serve.child);
    const url = /listening on (http:\/\/\S+)/.exec(serve.stdout())![1];
    const auth = { authorization: `Bearer ${token}` };
    const list = (await (await fetch(`${url}/api/v1/me/games`, { headers: auth })).json()) as { games: Array<{ id: string }> };
    const id = list.games[0].id;
    const asked = await fetch(`${url}/api/v1/me/games/${id}/review`, { method: 'POST', headers: { ...auth, 'content-type': 'application/json' }, body: '{}' });
    expect(asked.status).toBe(202);

    // The worker: the bundled lite build (its start is quick), one engine.
    // The key in a file only its owner reads, as docs/machines.md says: never on the command line.
    writeFileSync(join(dir, 'worker-key'), `${key}\n`, { mode: 0o600 });
    const worker = spawn(CLI[0], [...CLI.slice(1), 'worker', '--server', url, '--key-file', join(dir, 'worker-key')], { env: { ...process.env, CFP_ENGINE_BUILD: 'lite' } });
    children.push(worker);
    let out = '';
    worker.stdout!.on('data', (d: Buffer) => (out += d.toString()));
    const deadline = Date.now() + 90_000;
    let analysis: { analysed: boolean; plyCount?: number } = { analysed: false };
    while (!analysis.analysed && Date.now() < deadline) {
      await new Promise((r) => setTimeout(r, 300));
      analysis = (await (await fetch(`${url}/api/v1/me/games/${id}/analysis?limit=120`, { headers: auth })).json()) as typeof analysis;
    }
    expect(analysis.analysed).toBe(true);
    expect(analysis.plyCount).toBe(14);
    // The worker's line for the job: 14 plies, all 15 positions searched at 2000 × 6/7 nodes.
    expect(out).toMatch(/job \S+: 14 plies, 15 positions searched \(0 skipped\) at 1714 nodes in [\d.]+ s, \d+ knps; submitted/);

    // What the store holds: the worker's review, named by its key, its client and engine, and fishnet's search.
    const store = openStore(storeFile(dir));
    try {
      const game = store.sqlite.prepare('SELECT user_id AS userId, moves_key AS movesKey FROM games WHERE id = ?').get(id) as { userId: string; movesKey: string };
      const stored = engineOutput(store, game.userId, game.movesKey)!;
      expect(stored.movesUci).toEqual(UCI);
      expect(stored.worker).toMatchObject({ key: 'laptop', flavor: 'nnue' });
      expect(stored.worker!.userAgent).toMatch(/^chess-footprint-worker-[a-z0-9]+-[a-z0-9]+\/\d+\.\d+\.\d+ \(Stockfish 19 Lite WASM; nn-[0-9a-f]+\.nnue\)$/);
      expect(stored.budget).toMatchObject({ multiPv: 1, search: 'fishnet' });
      const fens = gamePositions(START_FEN, UCI).map((p) => p.fen);
      expect(stored.positions.map((p) => p.index)).toEqual(fens.map((_, i) => i));
      for (const p of stored.positions) {
        expect(p.lines).toHaveLength(1);
        const board = boardAt(fens[p.index])!;
        expect(p.lines[0].pv.every((m) => playUci(board, m) !== null)).toBe(true);
      }
    } finally {
      store.close();
    }
  }, 120_000);
});

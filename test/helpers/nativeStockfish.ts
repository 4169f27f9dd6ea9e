import { spawn } from 'node:child_process';
import { createInterface } from 'node:readline';

/** A search's outcome: the move and the last principal line's score, side to move's view. */
export interface NativeSearch {
  bestMove: string;
  score: { cp: number; mate?: undefined } | { mate: number; cp?: undefined } | null;
}

/**
 * A native Stockfish process (`CFP_STOCKFISH`, default Debian's /usr/games/stockfish) under `nice`, spoken to over
 * UCI, one search at a time: for dev scripts that run an engine outside the service (the demo's games and their
 * measurement), where the service's pool would bring its own budget and bookkeeping.
 */
export class NativeStockfish {
  private proc = spawn('nice', ['-n', '10', process.env.CFP_STOCKFISH ?? '/usr/games/stockfish'], { stdio: 'pipe' });
  private waiting: ((line: string) => void) | null = null;
  private queue: string[] = [];

  constructor() {
    createInterface({ input: this.proc.stdout }).on('line', (l) => {
      if (this.waiting) this.waiting(l);
      else this.queue.push(l);
    });
  }

  private next(): Promise<string> {
    const l = this.queue.shift();
    if (l !== undefined) return Promise.resolve(l);
    return new Promise((resolve) => {
      this.waiting = (line) => {
        this.waiting = null;
        resolve(line);
      };
    });
  }

  send(cmd: string) {
    this.proc.stdin.write(`${cmd}\n`);
  }

  private async until(prefix: string): Promise<string[]> {
    const seen: string[] = [];
    for (;;) {
      const l = await this.next();
      seen.push(l);
      if (l.startsWith(prefix)) return seen;
    }
  }

  /** The UCI handshake, then the options given (Threads 1 and Hash 16 unless set). */
  async init(options: Record<string, string> = {}): Promise<string> {
    this.send('uci');
    const id = (await this.until('uciok')).find((l) => l.startsWith('id name '))?.slice(8) ?? 'unknown';
    for (const [k, v] of Object.entries({ Threads: '1', Hash: '16', ...options })) this.send(`setoption name ${k} value ${v}`);
    this.send('isready');
    await this.until('readyok');
    return id;
  }

  /** Searches the position after `moves` from the start with `go <limit>` (e.g. `nodes 200000`). */
  async search(moves: readonly string[], limit: string): Promise<NativeSearch> {
    this.send(`position startpos moves ${moves.join(' ')}`);
    this.send(`go ${limit}`);
    const out = await this.until('bestmove');
    let score: NativeSearch['score'] = null;
    for (const l of out) {
      // With several lines (MultiPV, or the strength limit's four) the first is the engine's own view.
      if (!l.startsWith('info') || (l.includes(' multipv ') && !l.includes(' multipv 1 '))) continue;
      const cp = / score cp (-?\d+)/.exec(l);
      const mate = / score mate (-?\d+)/.exec(l);
      if (cp) score = { cp: Number(cp[1]) };
      else if (mate) score = { mate: Number(mate[1]) };
    }
    return { bestMove: out[out.length - 1].split(' ')[1], score };
  }

  close() {
    this.send('quit');
  }
}

import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { setPriority } from 'node:os';
import { createInterface } from 'node:readline';
import { engineCommand, startTimeoutMs, type EngineBuild, type EngineKind } from './builds.js';
import { parseUciLine, SearchCollector, type InfoLine, type SearchResult, type UciMessage } from './uciParser.js';

export interface EngineSpec {
  /** A native UCI binary; null runs the npm `stockfish` package's single-threaded WASM `build` under node. */
  path: string | null;
  /** Which bundled build runs when `path` is null (src/engine/builds.ts). */
  build: EngineBuild;
  threads: number;
  hashMb: number;
  multiPv: number;
}

/** Reads one search's info lines into a result once `bestmove` arrives. */
export interface InfoCollector<T> {
  push(info: InfoLine): void;
  finish(bestMove: string | null): T;
}

export class EngineFailure extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'EngineFailure';
  }
}

/** "Stockfish 19 Lite WASM" → name "Stockfish", version "19 Lite WASM". */
export function splitEngineId(id: string): { name: string; version: string } {
  const m = /^(\S+)\s*(.*)$/.exec(id.trim());
  return { name: m?.[1] || 'unknown', version: m?.[2] || 'unknown' };
}

/**
 * One engine process speaking UCI over stdin/stdout: handshake, options, one search at a time.
 * It holds no chess knowledge; positions arrive as `position` arguments and results leave as parsed lines.
 * A process that exits or stops answering fails the pending call with EngineFailure; the pool restarts it.
 */
export class UciEngine {
  private waiters: Array<(msg: UciMessage) => boolean> = [];
  private exited: string | null = null;
  private onExit: Array<(reason: string) => void> = [];
  id = { name: 'unknown', version: 'unknown' };
  /** The NNUE network file the engine loads by default (its EvalFile option), or null when it names none. */
  network: string | null = null;

  private constructor(
    private readonly proc: ChildProcessWithoutNullStreams,
    /** Which engine this process runs: a bundled build or a native binary. */
    readonly kind: EngineKind,
  ) {
    createInterface({ input: proc.stdout }).on('line', (line) => this.dispatch(parseUciLine(line)));
    proc.stderr.resume();
    const fail = (reason: string) => {
      if (this.exited) return;
      this.exited = reason;
      for (const cb of this.onExit.splice(0)) cb(reason);
    };
    proc.on('exit', (code, signal) => fail(`engine process exited (${signal ?? `code ${code}`})`));
    proc.on('error', (err) => fail(`engine process failed: ${err.message}`));
    proc.stdin.on('error', () => fail('engine stdin closed'));
  }

  /** The engine's OS process id (for its priority and CPU accounting). */
  get pid(): number | undefined {
    return this.proc.pid;
  }

  static async start(spec: EngineSpec, timeout?: number): Promise<UciEngine> {
    const cmd = engineCommand(spec);
    const timeoutMs = timeout ?? startTimeoutMs(cmd.kind, cmd.script);
    const proc = spawn(cmd.command, cmd.args, { stdio: 'pipe' });
    lowerPriority(proc.pid);
    const engine = new UciEngine(proc, cmd.kind);
    try {
      let idName = '';
      engine.send('uci');
      await engine.until((m) => {
        if (m.kind === 'id' && m.field === 'name') idName = m.value;
        // `option name EvalFile type string default nn-1a298aa575a0.nnue`: the network the build embeds.
        const net = m.kind === 'other' ? /^option name EvalFile type string default (\S+)/.exec(m.text) : null;
        if (net && net[1] !== '<empty>') engine.network = net[1];
        return m.kind === 'uciok';
      }, timeoutMs);
      engine.id = splitEngineId(idName);
      // The WASM build is single-threaded: its Threads option is max 1, so sending 1 is harmless there.
      engine.send(`setoption name Threads value ${spec.path ? spec.threads : 1}`);
      engine.send(`setoption name Hash value ${spec.hashMb}`);
      engine.send(`setoption name MultiPV value ${spec.multiPv}`);
      await engine.ready(timeoutMs);
      return engine;
    } catch (err) {
      engine.kill();
      throw err;
    }
  }

  get alive(): boolean {
    return this.exited === null;
  }

  private send(cmd: string): void {
    if (this.exited) throw new EngineFailure(this.exited);
    this.proc.stdin.write(`${cmd}\n`);
  }

  private dispatch(msg: UciMessage): void {
    const w = this.waiters[0];
    if (w && w(msg)) this.waiters.shift();
  }

  /** Resolves when `accept` returns true for a line; rejects on exit or timeout. */
  private until(accept: (m: UciMessage) => boolean, timeoutMs: number): Promise<void> {
    return new Promise((resolve, reject) => {
      if (this.exited) return reject(new EngineFailure(this.exited));
      let settled = false;
      const done = (err?: Error) => {
        if (settled) return;
        settled = true;
        clearTimeout(timer);
        if (err) reject(err);
        else resolve();
      };
      const timer = setTimeout(() => {
        done(new EngineFailure(`engine did not answer within ${Math.round(timeoutMs / 1000)} s`));
        this.kill();
      }, timeoutMs);
      this.onExit.push((reason) => done(new EngineFailure(reason)));
      this.waiters.push((m) => {
        if (!accept(m)) return false;
        done();
        return true;
      });
    });
  }

  async ready(timeoutMs = 30_000): Promise<void> {
    this.send('isready');
    await this.until((m) => m.kind === 'readyok', timeoutMs);
  }

  /** Tells the engine a new game starts (clears its hash), then waits until it is ready. */
  async newGame(): Promise<void> {
    this.send('ucinewgame');
    await this.ready();
  }

  /**
   * Searches one position for a fixed node budget. `position` is the UCI position argument
   * (`fen … moves …`): sending the moves lets the engine see repetitions.
   */
  async search(position: string, nodes: number, timeoutMs: number): Promise<SearchResult> {
    return this.searchWith(position, nodes, timeoutMs, new SearchCollector());
  }

  /** The same search, its info lines read by `collector` (fishnet reads them its own way: src/engine/fishnetSearch.ts). */
  async searchWith<T>(position: string, nodes: number, timeoutMs: number, collector: InfoCollector<T>): Promise<T> {
    let best: string | null = null;
    this.send(`position ${position}`);
    this.send(`go nodes ${nodes}`);
    await this.until((m) => {
      if (m.kind === 'info') collector.push(m.info);
      if (m.kind !== 'bestmove') return false;
      best = m.move;
      return true;
    }, timeoutMs);
    return collector.finish(best);
  }

  /** CPU seconds the engine process has used (Linux /proc; null elsewhere). For benchmarks. */
  cpuSeconds(): number | null {
    try {
      const stat = readFileSync(`/proc/${this.proc.pid}/stat`, 'utf8');
      // Fields after the command name (which may hold spaces): utime and stime are the 12th and 13th.
      const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      return (Number(fields[11]) + Number(fields[12])) / 100;
    } catch {
      return null;
    }
  }

  /** Peak resident memory of the engine process in bytes (Linux /proc VmHWM; null elsewhere). For benchmarks. */
  peakRssBytes(): number | null {
    try {
      const m = /^VmHWM:\s+(\d+) kB/m.exec(readFileSync(`/proc/${this.proc.pid}/status`, 'utf8'));
      return m ? Number(m[1]) * 1024 : null;
    } catch {
      return null;
    }
  }

  kill(): void {
    if (!this.proc.killed) this.proc.kill('SIGKILL');
  }

  async quit(): Promise<void> {
    if (this.exited) return;
    const gone = new Promise<void>((resolve) => this.onExit.push(() => resolve()));
    try {
      this.send('quit');
    } catch {
      return;
    }
    const timer = setTimeout(() => this.kill(), 2000);
    await gone;
    clearTimeout(timer);
  }
}

/**
 * Reviews are background work: at nice 10 an engine competing with the server for a core gets about
 * a tenth of it (Linux CFS weights 110 against 1024), so reads stay fast while both cores review,
 * yet reviews still progress on a machine other work keeps busy (at 19 they would all but stop).
 * Best effort: a platform that refuses (or a process already gone) leaves the engine at normal priority.
 */
export const ENGINE_NICE = 10;
function lowerPriority(pid: number | undefined): void {
  if (pid === undefined) return;
  try {
    setPriority(pid, ENGINE_NICE);
  } catch {
    // Not permitted or not supported: the review still runs.
  }
}

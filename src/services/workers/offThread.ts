import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { Worker } from 'node:worker_threads';
import type { Judgement, JudgementInput } from './judgement.js';

/**
 * Submissions judged on a thread of their own (issue 44 item 1): a 107-ply analysis took 0.2–1 s of chess.js
 * replays and derivation on a loaded 2-core machine, all of it on the event loop before; now the event loop only
 * hands the parsed body over and writes the answer. One thread per process, started on the first submission and
 * kept (its modules load once); it does not keep the process alive. Submissions queue on it in order, which is
 * also what bounds the CPU one flood of submissions can take from the rest of the server.
 */
type Pending = { resolve: (j: Judgement) => void; reject: (e: Error) => void };

let thread: Worker | null = null;
let nextId = 1;
const pending = new Map<number, Pending>();

/**
 * The thread's file: beside this module as built (dist, .js), or as bundled with the CLI (one file, the thread's
 * bundle beside it, .mjs: test/helpers/buildCli.ts); from the sources (vitest, tsx) the .ts through tsx's loader.
 */
function threadFile(): { file: string; execArgv: string[] } {
  if (import.meta.url.endsWith('.ts')) return { file: fileURLToPath(new URL('./judgementThread.ts', import.meta.url)), execArgv: ['--import', 'tsx'] };
  const built = fileURLToPath(new URL('./judgementThread.js', import.meta.url));
  return { file: existsSync(built) ? built : fileURLToPath(new URL('./judgementThread.mjs', import.meta.url)), execArgv: [] };
}

function start(): Worker {
  const { file, execArgv } = threadFile();
  const w = new Worker(file, { execArgv });
  w.unref();
  w.on('message', (msg: { id: number; out?: Judgement; error?: string }) => {
    const p = pending.get(msg.id);
    if (!p) return;
    pending.delete(msg.id);
    if (msg.error !== undefined) p.reject(new Error(msg.error));
    else p.resolve(msg.out!);
  });
  const fail = (err: Error) => {
    if (thread === w) thread = null;
    for (const p of pending.values()) p.reject(err);
    pending.clear();
  };
  w.on('error', fail);
  w.on('exit', (code) => fail(new Error(`the submission thread exited (${code})`)));
  return w;
}

/**
 * Starts the thread ahead of the first submission (when a job is first handed out): starting it costs the main
 * thread tens of milliseconds once (measured 54 ms under load), better spent while the worker searches than while a
 * submission waits.
 */
export function warmJudgeThread(): void {
  thread ??= start();
}

/** Judges a submission off the main thread; rejects when the thread fails (the caller answers 503: nothing was changed). */
export function judgeOffThread(input: JudgementInput): Promise<Judgement> {
  thread ??= start();
  const id = nextId++;
  const w = thread;
  // Held while a judgement is awaited (a CLI process must not exit under it), let go when idle.
  w.ref();
  const settle = () => {
    if (!pending.size) w.unref();
  };
  return new Promise<Judgement>((resolve, reject) => {
    pending.set(id, { resolve, reject });
    w.postMessage({ id, input });
  }).finally(settle);
}

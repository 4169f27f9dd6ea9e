import { parentPort } from 'node:worker_threads';
import { judgeSubmission, type JudgementInput } from './judgement.js';

/** The thread offThread.ts starts: judges one submission per message, in order (judgement.ts). */
parentPort!.on('message', (msg: { id: number; input: JudgementInput }) => {
  try {
    parentPort!.postMessage({ id: msg.id, out: judgeSubmission(msg.input) });
  } catch (err) {
    parentPort!.postMessage({ id: msg.id, error: err instanceof Error ? err.message : String(err) });
  }
});

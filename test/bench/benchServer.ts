import { spawn, type ChildProcess } from 'node:child_process';
import { join } from 'node:path';

/** The shipped server (dist/, serveBench.mjs) on a bench store in its own process, with these environment additions. */
export function startBenchServer(dataDir: string, env: Record<string, string>): Promise<{ child: ChildProcess; url: string }> {
  const child = spawn(process.execPath, [join(import.meta.dirname, 'serveBench.mjs'), dataDir], { stdio: ['ignore', 'pipe', 'inherit'], env: { ...process.env, ...env } });
  return new Promise((resolve, reject) => {
    child.once('exit', (code) => reject(new Error(`bench server exited (${code})`)));
    child.stdout!.once('data', (d: Buffer) => resolve({ child, url: (JSON.parse(d.toString().trim().split('\n')[0]) as { url: string }).url }));
  });
}

export async function stopBenchServer(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null) return;
  const exited = new Promise((r) => child.once('exit', r));
  child.kill('SIGTERM');
  await exited;
}

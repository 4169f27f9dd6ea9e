import { execFile, spawn, type ChildProcess } from 'node:child_process';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { CLI_BUNDLE } from './cliBundle.js';

const root = join(import.meta.dirname, '../..');
/** The CLI as built from source for this test run (vitest's globalSetup, test/helpers/buildCli.ts). */
export const CLI = [process.execPath, CLI_BUNDLE];

export async function cli(args: string[], env: Record<string, string> = {}) {
  const { stdout, stderr } = await promisify(execFile)(CLI[0], [...CLI.slice(1), ...args], { cwd: root, env: { ...process.env, ...env } });
  return { stdout, stderr };
}

/** Starts a long-running command and resolves once stdout shows `ready` (a regex). */
export function start(args: string[], ready: RegExp, env: Record<string, string> = {}): Promise<{ child: ChildProcess; stdout: () => string }> {
  const child = spawn(CLI[0], [...CLI.slice(1), ...args], { cwd: root, env: { ...process.env, ...env } });
  let out = '';
  return new Promise((resolve, reject) => {
    child.stdout!.on('data', (d: Buffer) => {
      out += d.toString();
      if (ready.test(out)) resolve({ child, stdout: () => out });
    });
    child.stderr!.on('data', () => {});
    child.once('exit', (code) => reject(new Error(`exited ${code} before ready: ${out}`)));
  });
}

import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, test } from 'vitest';
import { liveServe, markServing } from '../../src/store/liveServe.js';
import { linkBase } from '../../src/services/common/index.js';
import { loadConfig } from '../../src/config.js';

let dir: string;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'cfp-live-'));
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

describe('the live serve of a data folder', () => {
  test('a marker written by another live process is found; a dead pid, junk or none is not', () => {
    expect(liveServe(dir)).toBeNull();
    // The parent of this worker is alive and not us: a stand-in for a `serve` beside an `mcp`.
    writeFileSync(join(dir, 'serve.json'), JSON.stringify({ pid: process.ppid, origin: 'http://127.0.0.1:47102' }));
    expect(liveServe(dir)).toEqual({ pid: process.ppid, origin: 'http://127.0.0.1:47102' });
    // A process that has exited: its pid answers ESRCH.
    const dead = spawnSync(process.execPath, ['-e', 'console.log(process.pid)'], { encoding: 'utf8' });
    writeFileSync(join(dir, 'serve.json'), JSON.stringify({ pid: Number(dead.stdout.trim()), origin: 'http://127.0.0.1:47102' }));
    expect(liveServe(dir)).toBeNull();
    writeFileSync(join(dir, 'serve.json'), '{"pid": "x"');
    expect(liveServe(dir)).toBeNull();
  });

  test('markServing writes a 0600 marker the process itself does not read back as another serve, and removes it', () => {
    const unmark = markServing(dir, 'http://127.0.0.1:8080');
    expect(statSync(join(dir, 'serve.json')).mode & 0o777).toBe(0o600);
    expect(liveServe(dir)).toBeNull();
    expect(liveServe(dir, { includeSelf: true })?.origin).toBe('http://127.0.0.1:8080');
    unmark();
    expect(existsSync(join(dir, 'serve.json'))).toBe(false);
  });

  test('links over stdio: CFP_PUBLIC_URL, else a live serve on the same store, else host:port', () => {
    const config = loadConfig({ dataDir: dir, port: 3000 });
    const stdio = { config, caller: { transport: 'stdio' as const } } as unknown as Parameters<typeof linkBase>[0];
    expect(linkBase(stdio)).toBe('http://127.0.0.1:3000');
    writeFileSync(join(dir, 'serve.json'), JSON.stringify({ pid: process.ppid, origin: 'http://127.0.0.1:47102' }));
    expect(linkBase(stdio)).toBe('http://127.0.0.1:47102');
    expect(linkBase({ ...stdio, config: { ...config, publicBaseUrl: 'https://chess.example' } } as typeof stdio)).toBe('https://chess.example');
  });
});

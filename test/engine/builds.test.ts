import { existsSync } from 'node:fs';
import { basename } from 'node:path';
import { describe, expect, test } from 'vitest';
import { loadConfig } from '../../src/config.js';
import { DEFAULT_ENGINE_BUILD, engineCommand, engineLabel, startTimeoutMs } from '../../src/engine/builds.js';

describe('engine builds', () => {
  test('CFP_ENGINE_BUILD: full or lite, unset is the default, anything else refused naming the variable; a native binary (--engine / CFP_STOCKFISH) still wins', () => {
    expect(loadConfig({}, { CFP_ENGINE_BUILD: 'lite' }).engine).toMatchObject({ path: null, build: 'lite' });
    expect(loadConfig({}, {}).engine.build).toBe(DEFAULT_ENGINE_BUILD);
    const native = loadConfig({ enginePath: '/opt/sf' }, { CFP_ENGINE_BUILD: 'lite', CFP_STOCKFISH: '/usr/bin/other' }).engine;
    expect(engineCommand(native)).toEqual({ command: '/opt/sf', args: [], kind: 'native' });
    expect(loadConfig({}, { CFP_ENGINE_BUILD: 'full' }).engine.build).toBe('full');
    expect(() => loadConfig({}, { CFP_ENGINE_BUILD: 'big' })).toThrow(/CFP_ENGINE_BUILD="big" \(engine\.build\)/);
  });

  test('a bundled build runs its own single-threaded script of the stockfish package under node', () => {
    const full = engineCommand({ path: null, build: 'full' });
    const lite = engineCommand({ path: null, build: 'lite' });
    expect(full.command).toBe(process.execPath);
    expect([basename(full.args[0]), basename(lite.args[0])]).toEqual(['stockfish-19-single.js', 'stockfish-19-lite-single.js']);
    expect(existsSync(full.args[0]) && existsSync(lite.args[0])).toBe(true);
    // The full build's network lives in the 99 MB .wasm beside its script.
    expect(existsSync(full.args[0].replace(/\.js$/, '.wasm'))).toBe(true);
    expect([full.kind, lite.kind]).toEqual(['full', 'lite']);
  });

  test('a .js build named by path runs under this node (a Stockfish build from npm), with the long start-up allowance', () => {
    expect(engineCommand({ path: '/tmp/sf/stockfish-17.1-lite-single.js', build: 'full' })).toEqual({
      command: process.execPath,
      args: ['/tmp/sf/stockfish-17.1-lite-single.js'],
      kind: 'native',
      script: true,
    });
    expect(engineCommand({ path: '/opt/engines/sf.mjs', build: 'full' }).command).toBe(process.execPath);
    expect(startTimeoutMs('native', true)).toBe(startTimeoutMs('full'));
  });

  test('the full build gets a longer start-up allowance than the others', () => {
    expect(startTimeoutMs('full')).toBeGreaterThan(startTimeoutMs('lite'));
    expect(startTimeoutMs('native')).toBe(startTimeoutMs('lite'));
  });

  test('a review names its engine with build and network; one stored before builds were recorded keeps its old name', () => {
    expect(engineLabel({ name: 'Stockfish', version: '19 WASM', build: 'full', network: 'nn-1a298aa575a0.nnue' })).toBe(
      'Stockfish 19 WASM, full build, nn-1a298aa575a0.nnue',
    );
    expect(engineLabel({ name: 'Stockfish', version: '15.1', build: 'native', network: null })).toBe('Stockfish 15.1, native');
    expect(engineLabel({ name: 'Stockfish', version: '19 Lite WASM' })).toBe('Stockfish 19 Lite WASM');
  });
});

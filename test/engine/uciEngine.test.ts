import { getPriority } from 'node:os';
import { describe, expect, test } from 'vitest';
import { ENGINE_NICE, UciEngine } from '../../src/engine/uciEngine.js';

describe('engine processes', () => {
  test('run at a lower OS priority, so reviews yield the CPU to the server', async () => {
    const engine = await UciEngine.start({ path: null, build: 'lite', threads: 1, hashMb: 16, multiPv: 1 });
    try {
      expect(engine.pid).toBeGreaterThan(0);
      expect(getPriority(engine.pid!)).toBe(ENGINE_NICE);
      expect(getPriority()).toBeLessThan(ENGINE_NICE); // the server itself is untouched
    } finally {
      await engine.quit();
    }
  }, 60_000);
});

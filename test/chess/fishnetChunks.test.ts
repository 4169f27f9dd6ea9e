import { describe, expect, test } from 'vitest';
import { fishnetChunks, fishnetNodeLimit, type ChunkSearch } from '../../src/chess/fishnetChunks.js';

/** `12w` is position 12 searched as an overlap or warm-up (its result thrown away), `12` one that is recorded. */
const show = (chunks: ChunkSearch[][]) => chunks.map((c) => c.map((s) => `${s.index}${s.record ? '' : 'w'}`));

describe('fishnet chunks (fishnet src/queue.rs: backwards, at most 6 per chunk, one overlap)', () => {
  test.each([
    // Worked by hand: positions 12..0 walked backwards in slices of 5; each chunk opens with the position searched
    // just before it (the first with the last position repeated); a skipped position right before a searched one is
    // searched as its warm-up.
    ['13 positions', 13, [], [['12w', '12', '11', '10', '9', '8'], ['8w', '7', '6', '5', '4', '3'], ['3w', '2', '1', '0']]],
    ['skipping 5 and 0', 13, [5, 0], [['12w', '12', '11', '10', '9', '8'], ['8w', '7', '6', '5w', '4', '3'], ['3w', '2', '1']]],
    ['skipping the last', 13, [12], [['12w', '11', '10', '9', '8'], ['8w', '7', '6', '5', '4', '3'], ['3w', '2', '1', '0']]],
    ['one position', 1, [], [['0w', '0']]],
    ['every position skipped', 3, [0, 1, 2], []],
  ])('%s', (_, positions, skip, expected) => {
    const chunks = fishnetChunks(positions, new Set(skip));
    expect(show(chunks)).toEqual(expected);
    expect(chunks.every((c) => c.length <= 6)).toBe(true);
  });

  test("the node limit scaled by 6/7 for the overlap, as fishnet's NodeLimit::get: 1,000,000 → go nodes 857142", () => {
    expect(fishnetNodeLimit(1_000_000)).toBe(857_142);
    expect(fishnetNodeLimit(2000)).toBe(1714);
  });
});

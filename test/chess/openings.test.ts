import { describe, expect, test } from 'vitest';
import { classifyOpening, openingFamily, openingTable } from '../../src/chess/openings.js';

describe('opening names', () => {
  test('the table holds the ~3,800 lines of the data set (3,812 rows less 5 header lines)', () => {
    expect(openingTable().lines).toHaveLength(3807);
  });

  test.each([
    // Najdorf: 1.e4 c5 2.Nf3 d6 3.d4 cxd4 4.Nxd4 Nf6 5.Nc3 a6 (B90 in the ECO).
    [['e4', 'c5', 'Nf3', 'd6', 'd4', 'cxd4', 'Nxd4', 'Nf6', 'Nc3', 'a6'], 'B90', 'Sicilian Defense: Najdorf Variation'],
    // Queen's Gambit Declined reached by 1.c4 e6 2.Nc3 d5 3.d4: a transposition, named by position.
    [['c4', 'e6', 'Nc3', 'd5', 'd4'], 'D30', null],
  ])('%j → %s', (moves, eco, name) => {
    const m = classifyOpening(moves as string[]);
    expect(m).not.toBeNull();
    if (name) expect(m!.name).toBe(name);
    expect(m!.eco.slice(0, 2)).toBe(eco.slice(0, 2));
  });

  test('no named position → null; family is the part before the colon', () => {
    expect(classifyOpening([])).toBeNull();
    expect(openingFamily('Sicilian Defense: Najdorf Variation')).toBe('Sicilian Defense');
  });
});

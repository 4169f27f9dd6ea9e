import { readFileSync, existsSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { parseTrf } from '../../../src/chess/pairing/index.js';
import { fixturePath } from '../../helpers/fixtures.js';

const dir = fixturePath('pairing/cases');
const line1 =
  '001    1      Test0001 Player0001               2323                             4.0    2    26 w =    50 b 1    22 w =    18 b 1     2 w 1';
const header = '012 Pairing case X\n062 2\n092 Individual: Swiss-System (FIDE Dutch)\nXXR 11\nXXC black1\n';
const line2 =
  '001    2      Test0002 Player0002               2321                             0.0   12    27 b +    15 w -  0000 - U  0000 - H  0000 - Z  0000 - H';

describe('TRF-16 subset reader', () => {
  it('reads a player line column by column (case 010, player 1, worked by hand)', () => {
    const s = parseTrf(header + line1 + '\n' + line2 + '\n');
    expect(s.totalRounds).toBe(11);
    expect(s.initialColour).toBe('black');
    expect(s.roundsPlayed).toBe(5);
    const p = s.players[0];
    expect(p).toMatchObject({ startingRank: 1, name: 'Test0001 Player0001', rating: 2323, points: 4, absentNextRound: false });
    // ½ + 1 + ½ + 1 + 1 = 4.0, the points column.
    expect(p.history).toEqual([
      { kind: 'game', opponent: 26, colour: 'white', result: 'draw' },
      { kind: 'game', opponent: 50, colour: 'black', result: 'win' },
      { kind: 'game', opponent: 22, colour: 'white', result: 'draw' },
      { kind: 'game', opponent: 18, colour: 'black', result: 'win' },
      { kind: 'game', opponent: 2, colour: 'white', result: 'win' },
    ]);
    // Forfeits, a PAB, a half-point bye, a zero-point absence, and a sixth block: a known absence next round.
    expect(s.players[1].history.map((e) => (e.kind === 'game' ? e.result : e.kind))).toEqual(['forfeitWin', 'forfeitLoss', 'pab', 'halfBye', 'absent']);
    expect(s.players[1].absentNextRound).toBe(true);
  });

  it('accepts LF, CR and CRLF line ends alike', () => {
    const lf = header + line1 + '\n' + line2 + '\n';
    const a = parseTrf(lf);
    expect(parseTrf(lf.replace(/\n/g, '\r\n'))).toEqual(a);
    expect(parseTrf(lf.replace(/\n/g, '\r'))).toEqual(a);
  });

  it.skipIf(!existsSync(dir))('reads a round-1 starting list with a known absence (case 066: 134 players, No. 38 absent)', () => {
    const s = parseTrf(readFileSync(`${dir}/066.trf`, 'utf8'));
    expect(s.players).toHaveLength(134);
    expect(s.roundsPlayed).toBe(0);
    expect(s.initialColour).toBe('black');
    expect(s.players.filter((p) => p.absentNextRound).map((p) => p.startingRank)).toEqual([38]);
  });

  it('rejects a file without player lines', () => {
    expect(() => parseTrf(header)).toThrow(/no player lines/);
  });
});

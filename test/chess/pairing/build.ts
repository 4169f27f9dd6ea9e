import type { PlayerState, RoundEntry, TournamentState } from '../../../src/chess/pairing/index.js';

/** Hand-made tournament states: one string per round per player, e.g. '3w1' (beat No. 3 with White), 'U', 'H', 'Z', '4b+'. */
export function tournament(totalRounds: number, rows: string[][], opts: { absent?: number[]; initialColour?: 'white' | 'black' } = {}): TournamentState {
  const players: PlayerState[] = rows.map((cells, i) => {
    const history = cells.map(entry);
    const points = history.reduce((s, e) => s + points1(e), 0);
    return { startingRank: i + 1, name: `P${i + 1}`, rating: 2000 - i, points, history, absentNextRound: opts.absent?.includes(i + 1) ?? false };
  });
  return { totalRounds, roundsPlayed: rows[0]?.length ?? 0, initialColour: opts.initialColour ?? 'white', players };
}

function entry(cell: string): RoundEntry {
  if (cell === 'U') return { kind: 'pab' };
  if (cell === 'H') return { kind: 'halfBye' };
  if (cell === 'Z') return { kind: 'absent' };
  const m = /^(\d+)([wb])([10=+-])$/.exec(cell);
  if (!m) throw new Error(`bad cell ${cell}`);
  const result = ({ '1': 'win', '0': 'loss', '=': 'draw', '+': 'forfeitWin', '-': 'forfeitLoss' } as const)[m[3] as '1'];
  return { kind: 'game', opponent: Number(m[1]), colour: m[2] === 'w' ? 'white' : 'black', result };
}

function points1(e: RoundEntry): number {
  if (e.kind === 'pab') return 1;
  if (e.kind === 'halfBye') return 0.5;
  if (e.kind === 'absent') return 0;
  return e.result === 'win' || e.result === 'forfeitWin' ? 1 : e.result === 'draw' ? 0.5 : 0;
}

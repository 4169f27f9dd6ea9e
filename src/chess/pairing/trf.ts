import type { PlayerState, RoundEntry, TournamentState } from './state.js';

/**
 * Reads the TRF-16 subset of the reference cases (player lines `001`, `XXR` total rounds, `XXC` initial colour).
 * Columns are fixed and 1-based; round blocks start at column 92, 10 characters each. A block beyond the
 * completed rounds (`0000 - H` / `0000 - Z`) marks a known absence in the round to pair.
 */
export function parseTrf(text: string): TournamentState {
  const lines = text.split(/\r\n|\r|\n/);
  let totalRounds = 0;
  let initialColour: 'white' | 'black' = 'white';
  const raw: Array<{ rank: number; name: string; rating: number; points: number; blocks: string[] }> = [];
  for (const line of lines) {
    const tag = line.slice(0, 3);
    if (tag === 'XXR') totalRounds = Number(line.slice(4).trim());
    else if (tag === 'XXC') initialColour = /black/i.test(line) ? 'black' : 'white';
    else if (tag === '001') {
      const blocks: string[] = [];
      for (let c = 91; c < line.length; c += 10) {
        const b = line.slice(c, c + 8);
        if (b.trim()) blocks.push(b);
      }
      raw.push({
        rank: Number(line.slice(4, 8).trim()),
        name: line.slice(14, 47).trim(),
        rating: Number(line.slice(48, 52).trim() || 0),
        points: Number(line.slice(80, 84).trim() || 0),
        blocks,
      });
    }
  }
  if (!totalRounds) throw new Error('TRF: missing XXR (total rounds)');
  if (raw.length === 0) throw new Error('TRF: no player lines');
  // Completed rounds: the block count shared by most players; one extra block is a known absence.
  const roundsPlayed = Math.min(...raw.map((r) => r.blocks.length));
  const players: PlayerState[] = raw
    .sort((a, b) => a.rank - b.rank)
    .map((r) => {
      if (r.blocks.length > roundsPlayed + 1) throw new Error(`TRF: player ${r.rank} has too many round blocks`);
      return {
        startingRank: r.rank,
        name: r.name,
        rating: r.rating,
        points: r.points,
        history: r.blocks.slice(0, roundsPlayed).map((b) => parseBlock(b, r.rank)),
        absentNextRound: r.blocks.length > roundsPlayed,
      };
    });
  return { totalRounds, roundsPlayed, initialColour, players };
}

function parseBlock(block: string, rank: number): RoundEntry {
  const opponent = Number(block.slice(0, 4).trim());
  const colour = block[5];
  const code = block[7];
  if (opponent === 0) {
    if (code === 'U' || code === 'F' || code === '+') return { kind: 'pab' };
    if (code === 'H') return { kind: 'halfBye' };
    return { kind: 'absent' };
  }
  const result = ({ '1': 'win', '=': 'draw', '0': 'loss', '+': 'forfeitWin', '-': 'forfeitLoss' } as const)[code];
  if (!result || (colour !== 'w' && colour !== 'b')) throw new Error(`TRF: bad round block "${block}" for player ${rank}`);
  return { kind: 'game', opponent, colour: colour === 'w' ? 'white' : 'black', result };
}

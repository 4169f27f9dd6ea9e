import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { gunzipSync } from 'node:zlib';
import { z } from 'zod';
import { Chess } from 'chess.js';
import { playSan } from '../chess/sanReplay.js';
import { dataDir } from '../paths.js';

/**
 * The demo's games after their opening lines, played once by Stockfish at the players' ratings and shipped as
 * `data/demo/games.json.gz` (`npm run demo:games`, test/golden/demoGames.ts, which says how). The seeder picks
 * from them and runs no engine. Each game records how it ended; its result follows from the board.
 */
export const PLAYED_GAMES_FILE = join(dataDir, 'demo', 'games.json.gz');

const Ending = z.enum(['mate', 'resign', 'time', 'agreement', 'repetition', 'stalemate', 'fifty', 'material']);
export type Ending = z.infer<typeof Ending>;

const PlayedGame = z.object({
  /** The ratings Stockfish played White and Black at (UCI_Elo). */
  w: z.number().int(),
  b: z.number().int(),
  /** The moves after the opening line, SAN, space-separated. */
  san: z.string(),
  result: z.enum(['1-0', '0-1', '1/2-1/2']),
  end: Ending,
});
export type PlayedGame = z.infer<typeof PlayedGame>;

const PlayedGamesSchema = z.object({
  made: z.object({ command: z.string(), engine: z.string(), settings: z.string() }).loose(),
  lines: z.array(z.object({ moves: z.string(), games: z.array(PlayedGame) })),
});
export type PlayedGames = z.infer<typeof PlayedGamesSchema>;

export function encodePlayedGames(p: PlayedGames): Buffer {
  return Buffer.from(JSON.stringify(p));
}

export function readPlayedGames(file = PLAYED_GAMES_FILE): PlayedGames {
  return PlayedGamesSchema.parse(JSON.parse(gunzipSync(readFileSync(file)).toString('utf8')));
}

/** A game's moves from the opening line on, its result and how it ended. */
export interface DrawnGame {
  san: string[];
  result: PlayedGame['result'];
  end: Ending;
}

/**
 * Draws the shipped games for one seeding: per opening line, each game once, preferring one whose result is the
 * result the seeder drew and whose rating is nearest the player's; a result the pool has run out of gives way to
 * another unused game (its own result stands), and a line drawn more often than it has games starts over.
 */
export function playedGameDrawer(shipped: PlayedGames = readPlayedGames()) {
  const byLine = new Map(shipped.lines.map((l) => [l.moves, l.games]));
  const used = new Map<string, Set<number>>();
  return (line: readonly string[], colour: 'white' | 'black', rating: number, wanted: PlayedGame['result']): DrawnGame => {
    const key = line.join(' ');
    const games = byLine.get(key);
    if (!games?.length) throw new Error(`no shipped demo games for the line ${key}: run npm run demo:games`);
    let taken = used.get(key);
    if (!taken || taken.size >= games.length) used.set(key, (taken = new Set()));
    const rank = (g: PlayedGame) => Math.abs((colour === 'white' ? g.w : g.b) - rating);
    let best = -1;
    for (const preferResult of [true, false]) {
      games.forEach((g, i) => {
        if (taken.has(i) || (preferResult && g.result !== wanted)) return;
        if (best < 0 || rank(g) < rank(games[best])) best = i;
      });
      if (best >= 0) break;
    }
    taken.add(best);
    const g = games[best];
    return { san: [...line, ...g.san.split(' ').filter(Boolean)], result: g.result, end: g.end };
  };
}

/** The drawn game replayed by chess.js: its SAN as chess.js writes it and its UCI moves (for the moves key). */
export function replayDrawn(g: DrawnGame): { san: string[]; uci: string[] } {
  const board = new Chess();
  const san: string[] = [];
  const uci: string[] = [];
  for (const token of g.san) {
    const m = playSan(board, token);
    if (typeof m === 'string') throw new Error(`shipped demo game: ${token} is ${m}`);
    san.push(m.san);
    uci.push(m.uci);
  }
  return { san, uci };
}

const DRAWN: Partial<Record<Ending, string>> = {
  agreement: 'Game drawn by agreement',
  repetition: 'Game drawn by repetition',
  stalemate: 'Game drawn by stalemate',
  fifty: 'Game drawn by the 50-move rule',
  material: 'Game drawn by insufficient material',
};
const WON: Partial<Record<Ending, string>> = { mate: 'checkmate', resign: 'resignation', time: 'time' };

/** The PGN Termination tag for a drawn game, in chess.com's words ("X won by resignation"). */
export function terminationText(g: DrawnGame, white: string, black: string): string {
  if (g.result === '1/2-1/2') return DRAWN[g.end] ?? 'Game drawn';
  const winner = g.result === '1-0' ? white : black;
  return g.end === 'time' ? `${winner} won on time` : `${winner} won by ${WON[g.end] ?? 'resignation'}`;
}

type Outcome = 'win' | 'draw' | 'loss';

/** A player's result as a PGN result. */
export function pgnResult(colour: 'white' | 'black', result: Outcome): PlayedGame['result'] {
  if (result === 'draw') return '1/2-1/2';
  return (result === 'win') === (colour === 'white') ? '1-0' : '0-1';
}

/** A PGN result as one player's result. */
export function playerResult(colour: 'white' | 'black', result: PlayedGame['result']): Outcome {
  if (result === '1/2-1/2') return 'draw';
  return (result === '1-0') === (colour === 'white') ? 'win' : 'loss';
}

/**
 * `npm run demo:games`: plays the demo's games once with an engine at club strengths and writes them to
 * data/demo/games.json.gz (src/demo/playedGames.ts reads it; the seeder runs no engine).
 *
 * Method (issue 45 item 11): native Stockfish (`CFP_STOCKFISH`, default /usr/games/stockfish) with
 * `UCI_LimitStrength` and `UCI_Elo` set to each player's rating (Stockfish's own strength limit: a shallow search
 * over four candidate lines with a rating-dependent random weakening, stockfish `search.cpp` Skill::pick_best;
 * UCI_Elo from 1350) and a fixed node budget a move, continuing each of the demo's opening lines (the owner's
 * repertoire in src/demo/games.ts, the made-up rival's in src/demo/prep.ts). Each line gets a pool about a quarter
 * larger than the 500-game demo draws from it, so the seeder can pick a game whose result is the one it drew.
 *
 * A game ends as players end them, and the result follows the board: checkmate; stalemate, threefold repetition,
 * the fifty-move rule or bare kings (draws); resignation when the side to move has judged itself at least
 * RESIGN_CP down on two searches running; a draw agreed in a level position late in the game; or, at a length
 * drawn per game, the clock: the side to move, when worse by FLAG_CP or more, loses on time; level, a draw is agreed.
 * A pick that takes a knight or bishop back to its home square is, AVOID_RETREAT of the time, searched again
 * without such moves (club players seldom undevelop; Stockfish's weakened picks do it twice as often as they do).
 * The owner's side is played EDGE_ELO × the line's `edge` points stronger or weaker (they do worse in the lines
 * they struggle in), so get_problem_lines still has a line to find.
 *
 * CFP_DEMO_GAMES_SCALE scales every pool (0.05 for a trial run). Nice'd, one thread: 704 games in 982 s on a loaded machine.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname } from 'node:path';
import { gzipSync } from 'node:zlib';
import { Chess } from 'chess.js';
import { playSan } from '../../src/chess/sanReplay.js';
import { REPERTOIRE } from '../../src/demo/games.js';
import { encodePlayedGames, PLAYED_GAMES_FILE, type PlayedGame, type PlayedGames } from '../../src/demo/playedGames.js';
import { RIVAL_LINES } from '../../src/demo/prep.js';
import { seededRandom } from '../../src/demo/rng.js';
import { NativeStockfish } from '../helpers/nativeStockfish.js';

const NODES = 4_000;
const RESIGN_CP = 600;
const FLAG_CP = 150;
const EDGE_ELO = 700;
const MIN_ELO = 1350; // Stockfish 15's lowest UCI_Elo
const SCALE = Number(process.env.CFP_DEMO_GAMES_SCALE ?? 1);
/** Games with moves the 500-game demo draws per colour: 85% of the owner's games carry moves, the rival has 140. */
const OWNER_PER_COLOUR = 212;
const RIVAL_PER_COLOUR = 70;
const SLACK = 1.25;
/** How often a pick that takes a knight or bishop home is searched again without such moves. */
const AVOID_RETREAT = 0.6;
/** Colour, piece and square of a knight or bishop arriving on its own home square: it only gets there by retreating. */
const RETREATS = new Set(['wnb1', 'wng1', 'wbc1', 'wbf1', 'bnb8', 'bng8', 'bbc8', 'bbf8']);

interface Score {
  cp: number;
}

/** The move Stockfish plays at `elo` and its own score of the position (side to move's view, a mate as ±10,000). */
async function enginePlay(engine: NativeStockfish, moves: string[], elo: number, only: string[] = []): Promise<{ uci: string; score: Score | null }> {
  engine.send(`setoption name UCI_Elo value ${Math.max(MIN_ELO, Math.round(elo))}`);
  const { bestMove, score } = await engine.search(moves, `nodes ${NODES}${only.length ? ` searchmoves ${only.join(' ')}` : ''}`);
  return { uci: bestMove, score: !score ? null : score.mate !== undefined ? { cp: score.mate > 0 ? 10_000 : -10_000 } : { cp: score.cp } };
}

type Rng = ReturnType<typeof seededRandom>;

async function playGame(engine: NativeStockfish, rng: Rng, opening: readonly string[], whiteElo: number, blackElo: number, ownerColour: 'white' | 'black', ownerShift: number): Promise<PlayedGame> {
  const board = new Chess();
  const uci: string[] = [];
  const san: string[] = [];
  for (const m of opening) {
    const p = playSan(board, m);
    if (typeof p === 'string') throw new Error(`opening move ${m} is ${p}`);
    uci.push(p.uci);
  }
  engine.send('ucinewgame');
  // When the players stop: a length drawn per game (most club games are over by 60 to 140 plies).
  const clockPly = Math.max(opening.length + 40, Math.min(200, Math.round(rng.normal(100, 25))));
  const down = { w: 0, b: 0 };
  let level = 0;
  const finish = (result: PlayedGame['result'], end: PlayedGame['end']): PlayedGame => ({ w: whiteElo, b: blackElo, san: san.join(' '), result, end });
  for (;;) {
    if (board.isCheckmate()) return finish(board.turn() === 'w' ? '0-1' : '1-0', 'mate');
    if (board.isStalemate()) return finish('1/2-1/2', 'stalemate');
    if (board.isInsufficientMaterial()) return finish('1/2-1/2', 'material');
    if (board.isThreefoldRepetition()) return finish('1/2-1/2', 'repetition');
    if (board.isDrawByFiftyMoves()) return finish('1/2-1/2', 'fifty');
    const turn = board.turn();
    const white = turn === 'w';
    const ownerToMove = (ownerColour === 'white') === white;
    const elo = (white ? whiteElo : blackElo) + (ownerToMove ? ownerShift : 0);
    let { uci: move, score } = await enginePlay(engine, uci, elo);
    // Club players seldom take a developed knight or bishop back to its home square (0.15 a game in the shared
    // lichess games); Stockfish's weakened picks do it twice as often. Most of the time it is asked again without
    // those moves, at the same strength.
    const home = (m: string) => {
      const piece = board.get(m.slice(0, 2) as never);
      return RETREATS.has(`${piece?.color}${piece?.type}${m.slice(2, 4)}`);
    };
    if (home(move) && rng.chance(AVOID_RETREAT)) {
      const others = board.moves({ verbose: true }).map((m) => m.lan).filter((m) => !home(m));
      if (others.length) ({ uci: move } = await enginePlay(engine, uci, elo, others));
    }
    // The mover's own judgement of the position before its move: two searches running at RESIGN_CP down, it resigns.
    if (score && uci.length >= 20) {
      down[turn] = score.cp <= -RESIGN_CP ? down[turn] + 1 : 0;
      if (down[turn] >= 2) return finish(white ? '0-1' : '1-0', 'resign');
      level = Math.abs(score.cp) <= 40 ? level + 1 : 0;
      // A level position late in the game: now and then a draw is agreed.
      if (uci.length >= 60 && level >= 8 && rng.chance(0.1)) return finish('1/2-1/2', 'agreement');
    }
    if (uci.length >= clockPly && score) {
      // Past the game's length the clock decides: level, a draw is agreed; the side to move worse by FLAG_CP or
      // more runs out of time thinking; the better side plays on until the other is to move.
      if (Math.abs(score.cp) < FLAG_CP) return finish('1/2-1/2', 'agreement');
      if (score.cp < 0) return finish(white ? '0-1' : '1-0', 'time');
    }
    const p = playSan(board, move);
    if (typeof p === 'string') throw new Error(`engine move ${move} is ${p}`);
    uci.push(p.uci);
    san.push(p.san);
  }
}

function pools() {
  const of = (lines: typeof REPERTOIRE, perColour: number, owner: boolean) =>
    lines.map((l) => {
      const total = lines.filter((x) => x.colour === l.colour).reduce((s, x) => s + x.weight, 0);
      return { line: l, owner, count: Math.max(3, Math.round(SCALE * SLACK * perColour * (l.weight / total))) };
    });
  return [...of(REPERTOIRE, OWNER_PER_COLOUR, true), ...of(RIVAL_LINES, RIVAL_PER_COLOUR, false)];
}

const engine = new NativeStockfish();
const engineId = await engine.init({ UCI_LimitStrength: 'true' });
const rng = seededRandom(45);
const made = { command: 'npm run demo:games', engine: `${engineId} (native)`, settings: `UCI_LimitStrength, UCI_Elo = rating (min ${MIN_ELO}), ${NODES} nodes a move, 1 thread`, resignCp: RESIGN_CP, flagCp: FLAG_CP, edgeElo: EDGE_ELO };
const out: PlayedGames = { made, lines: [] };
mkdirSync(dirname(PLAYED_GAMES_FILE), { recursive: true });
const t0 = Date.now();
let n = 0;
try {
  for (const { line, owner, count } of pools()) {
    const entry = { moves: line.moves.join(' '), games: [] as PlayedGame[] };
    out.lines.push(entry);
    for (let i = 0; i < count; i += 1) {
      // The owner's ratings span chess.com's and lichess's (1380 to 1880); the rival's 1745 to 1830.
      const me = owner ? 1380 + rng.next() * 500 : 1745 + rng.next() * 85;
      const opp = me + rng.normal(0, owner ? 110 : 90);
      const [w, b] = line.colour === 'white' ? [me, opp] : [opp, me];
      // The rival's edge is theirs; the owner's theirs: the side the line belongs to plays shifted.
      const g = await playGame(engine, rng, line.moves, Math.round(w), Math.round(b), line.colour, EDGE_ELO * line.edge);
      entry.games.push(g);
      n += 1;
      if (n % 10 === 0) {
        writeFileSync(PLAYED_GAMES_FILE, gzipSync(encodePlayedGames(out), { level: 9 }));
        console.error(`${n} games in ${((Date.now() - t0) / 1000).toFixed(0)} s`);
      }
    }
  }
  writeFileSync(PLAYED_GAMES_FILE, gzipSync(encodePlayedGames(out), { level: 9 }));
  console.error(`${n} games in ${((Date.now() - t0) / 1000).toFixed(0)} s: ${PLAYED_GAMES_FILE}`);
} finally {
  engine.close();
}

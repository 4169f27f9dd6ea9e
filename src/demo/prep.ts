import { classifyOpening } from '../chess/openings.js';
import { declareRepertoire, storeDemoScout } from '../services/prep/index.js';
import { onlineHandle } from './names.js';
import { pgnResult, playedGameDrawer, playerResult, replayDrawn } from './playedGames.js';
import type { DemoSeeder } from './seeder.js';
import { demoOwnerCtx } from './study.js';

/**
 * The demo's preparation (issue 39): a made-up lichess player to scout, and a repertoire of each colour,
 * so the Prep page shows what preparation does on first start. The player is invented here (its
 * name says demo; the scout is marked `demo` and never fetched); its games continue the opening lines below
 * with engine games shipped in data/demo, like the demo owner's own (src/demo/games.ts, src/demo/playedGames.ts).
 */
export const DEMO_SCOUT = { provider: 'siteB' as const, username: 'demo-rival' };

/**
 * What the made-up player plays. Their White meets the demo owner's Black (1.e4 e5 2.Nf3 Nc6, 1.d4 Nf6 2.c4
 * e6) and their Black the owner's White (1.e4 c5, 1.e4 e5), so "where your games meet theirs" has
 * positions; `edge` shifts their expected score (the Scotch and the Dragon are lines they lose in).
 */
export const RIVAL_LINES: Array<{ colour: 'white' | 'black'; moves: string[]; edge: number; weight: number }> = [
  { colour: 'white', moves: ['e4', 'e5', 'Nf3', 'Nc6', 'Bb5', 'a6', 'Ba4', 'Nf6', 'O-O', 'Be7', 'Re1', 'b5', 'Bb3', 'd6'], edge: 0.06, weight: 4 },
  { colour: 'white', moves: ['e4', 'e5', 'Nf3', 'Nc6', 'd4', 'exd4', 'Nxd4', 'Nf6', 'Nxc6', 'bxc6', 'e5'], edge: -0.25, weight: 2 },
  { colour: 'white', moves: ['e4', 'c5', 'Nf3', 'd6', 'd4', 'cxd4', 'Nxd4', 'Nf6', 'Nc3', 'a6', 'Be3', 'e5'], edge: 0.02, weight: 3 },
  { colour: 'white', moves: ['d4', 'Nf6', 'c4', 'e6', 'Nc3', 'Bb4', 'Qc2', 'O-O', 'a3', 'Bxc3+', 'Qxc3'], edge: 0, weight: 2 },
  { colour: 'white', moves: ['e4', 'e6', 'd4', 'd5', 'Nd2', 'c5', 'exd5', 'exd5'], edge: 0.03, weight: 1 },
  { colour: 'black', moves: ['e4', 'c5', 'Nf3', 'd6', 'd4', 'cxd4', 'Nxd4', 'Nf6', 'Nc3', 'g6', 'Be3', 'Bg7', 'f3', 'O-O'], edge: -0.22, weight: 3 },
  { colour: 'black', moves: ['e4', 'c5', 'Nc3', 'Nc6', 'g3', 'g6', 'Bg2', 'Bg7'], edge: 0.04, weight: 1 },
  { colour: 'black', moves: ['e4', 'e5', 'Nf3', 'Nc6', 'Bc4', 'Bc5', 'c3', 'Nf6', 'd3', 'd6'], edge: 0.03, weight: 2 },
  { colour: 'black', moves: ['d4', 'd5', 'c4', 'c6', 'Nf3', 'Nf6', 'Nc3', 'dxc4', 'a4', 'Bf5'], edge: 0.05, weight: 3 },
  { colour: 'black', moves: ['c4', 'e5', 'Nc3', 'Nf6', 'g3', 'd5', 'cxd5', 'Nxd5'], edge: 0, weight: 1 },
];

/** The demo owner's repertoire of each colour: the lines the demo games play, two of them prepared further. */
const DEMO_REPERTOIRE = {
  white: [
    '1. e4 e5 2. Nf3 Nc6 3. Bc4 Bc5 4. c3 Nf6 5. d4 exd4 6. cxd4 Bb4+ 7. Bd2',
    '1. e4 e5 2. Nf3 Nc6 3. Bc4 Nf6 4. Ng5',
    '1. e4 c5 2. Nf3 d6 3. d4 cxd4 4. Nxd4 Nf6 5. Nc3 a6 6. Be3',
    '1. e4 c5 2. Nf3 Nc6 3. d4 cxd4 4. Nxd4',
    '1. e4 e6 2. d4 d5 3. Nc3 Bb4 4. e5 c5',
    '1. e4 c6 2. d4 d5 3. e5 Bf5 4. Nf3 e6',
  ],
  black: [
    '1. e4 e5 2. Nf3 Nc6 3. Bb5 a6 4. Ba4 Nf6 5. O-O Be7',
    '1. e4 e5 2. Nf3 Nc6 3. Bc4 Nf6 4. d3 Be7',
    '1. e4 e5 2. Nf3 Nc6 3. d4 exd4 4. Nxd4 Nf6',
    '1. d4 Nf6 2. c4 e6 3. Nc3 Bb4 4. e3 O-O',
    '1. d4 Nf6 2. c4 e6 3. Nf3 b6',
    '1. d4 d5 2. c4 e6 3. Nc3 Nf6 4. Bg5 Be7',
    '1. c4 e5 2. Nc3 Nf6 3. g3 d5',
  ],
};

const GAMES = 140;
const MONTHS = 6;

export const seedPrep: DemoSeeder = async (demo) => {
  const { rng, clock, user } = demo;
  const end = clock.now().getTime();
  // Over the last five months, so every game is inside the scout's six-month window.
  const start = end - 150 * 86_400_000;
  const times = Array.from({ length: GAMES }, () => start + rng.next() * (end - start)).sort((a, b) => a - b);
  const ratings: Record<'blitz' | 'rapid', number> = { blitz: 1745, rapid: 1810 };
  const draw = playedGameDrawer();
  const rows = times.map((t, i) => {
    const colour = rng.chance(0.5) ? ('white' as const) : ('black' as const);
    const line = rng.weighted(RIVAL_LINES.filter((l) => l.colour === colour));
    const timeClass = rng.chance(0.65) ? ('blitz' as const) : ('rapid' as const);
    const rating = ratings[timeClass];
    const opp = Math.round(rating + rng.normal(0, 90));
    const exp = 1 / (1 + 10 ** ((opp - rating) / 400)) + line.edge;
    const win = Math.max(0.05, Math.min(0.92, exp - 0.05));
    const roll = rng.next();
    const drawn = roll < win ? 'win' : roll < win + 0.1 ? 'draw' : 'loss';
    // The moves are an engine game of this line (src/demo/playedGames.ts); its own result stands.
    const played = draw(line.moves, colour, rating, pgnResult(colour, drawn));
    const play = replayDrawn(played);
    const result = playerResult(colour, played.result);
    // A slow climb over the months, as a player who studies does.
    ratings[timeClass] = rating + Math.round(12 * ({ win: 1, draw: 0.5, loss: 0 }[result] - (exp - line.edge))) + (rng.chance(0.3) ? 1 : 0);
    const named = classifyOpening(line.moves);
    return {
      sourceId: `demo-rival-${i}`,
      playedAt: new Date(t).toISOString(),
      colour,
      result,
      opponent: onlineHandle(rng),
      opponentRating: opp,
      rating,
      timeClass,
      rated: true,
      eco: named?.eco ?? null,
      opening: named?.name ?? null,
      sanMoves: play.san.join(' '),
    };
  });
  storeDemoScout(demo.store, clock, user.id, DEMO_SCOUT.provider, DEMO_SCOUT.username, rows, MONTHS);
  const ctx = demoOwnerCtx(demo);
  for (const colour of ['white', 'black'] as const) await declareRepertoire(ctx, { colour, lines: DEMO_REPERTOIRE[colour] }, { demo: true });
  demo.log(`prep: a made-up player to scout (${DEMO_SCOUT.username}, ${GAMES} games) and a repertoire of each colour`);
};

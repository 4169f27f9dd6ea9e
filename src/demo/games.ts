import { movesKey, sha256, START_FEN } from '../chess/pgn.js';
import { classifyOpening } from '../chess/openings.js';
import { connections, users } from '../store/schema/index.js';
import { DEMO_ACCOUNTS, demoConnectionState } from './connections.js';
import { insertGames, type NewGame } from '../services/games/index.js';
import { eq } from 'drizzle-orm';
import { OTB_EVENTS, onlineHandle, personName } from './names.js';
import { pgnResult, playedGameDrawer, playerResult, replayDrawn, terminationText } from './playedGames.js';
import type { Rng } from './rng.js';
import type { DemoSeeder } from './seeder.js';
import { DEMO_TIME_CONTROLS, type OnlineClass } from './timeControls.js';

/**
 * The demo player's repertoire. `edge` shifts their expected score in that line (and the strength the engine plays
 * them at when the games are made, test/golden/demoGames.ts): the two negative ones are lines they genuinely
 * struggle in, so get_problem_lines has something to find.
 */
export const REPERTOIRE: Array<{ colour: 'white' | 'black'; moves: string[]; edge: number; weight: number }> = [
  { colour: 'white', moves: ['e4', 'e5', 'Nf3', 'Nc6', 'Bc4', 'Bc5', 'c3', 'Nf6'], edge: 0.05, weight: 4 },
  { colour: 'white', moves: ['e4', 'c5', 'Nf3', 'd6', 'd4', 'cxd4', 'Nxd4', 'Nf6', 'Nc3', 'a6'], edge: -0.22, weight: 3 },
  { colour: 'white', moves: ['e4', 'e6', 'd4', 'd5', 'Nc3', 'Bb4', 'e5', 'c5'], edge: 0, weight: 2 },
  { colour: 'white', moves: ['e4', 'c6', 'd4', 'd5', 'e5', 'Bf5', 'Nf3', 'e6'], edge: 0.03, weight: 2 },
  { colour: 'black', moves: ['e4', 'e5', 'Nf3', 'Nc6', 'Bb5', 'a6', 'Ba4', 'Nf6', 'O-O', 'Be7'], edge: -0.2, weight: 3 },
  { colour: 'black', moves: ['e4', 'e5', 'Nf3', 'Nc6', 'Bc4', 'Nf6', 'd3', 'Be7'], edge: 0.04, weight: 2 },
  { colour: 'black', moves: ['d4', 'Nf6', 'c4', 'e6', 'Nc3', 'Bb4', 'e3', 'O-O'], edge: 0.02, weight: 3 },
  { colour: 'black', moves: ['d4', 'd5', 'c4', 'e6', 'Nc3', 'Nf6', 'Bg5', 'Be7'], edge: 0, weight: 2 },
  { colour: 'black', moves: ['c4', 'e5', 'Nc3', 'Nf6', 'g3', 'd5'], edge: 0.02, weight: 1 },
];

const ONLINE_START: Record<'siteA' | 'siteB', Record<OnlineClass, number>> = {
  siteA: { bullet: 1380, blitz: 1470, rapid: 1560 },
  siteB: { bullet: 1640, blitz: 1710, rapid: 1790 },
};
const FED_START = { standard: 1820, rapid: 1790 };

function pickLine(rng: Rng, colour: 'white' | 'black') {
  return rng.weighted(REPERTOIRE.filter((l) => l.colour === colour));
}

function expected(rating: number, opponent: number): number {
  return 1 / (1 + 10 ** ((opponent - rating) / 400));
}

/** Win / draw / loss from an expected score and a draw rate. */
function sampleResult(rng: Rng, exp: number, drawRate: number): 'win' | 'draw' | 'loss' {
  const win = Math.max(0.02, Math.min(0.97, exp - drawRate / 2));
  const r = rng.next();
  return r < win ? 'win' : r < win + drawRate ? 'draw' : 'loss';
}

const SCORE = { win: 1, draw: 0.5, loss: 0 } as const;

function clock(seconds: number): string {
  const s = Math.max(0, Math.round(seconds));
  return `${Math.floor(s / 3600)}:${String(Math.floor((s % 3600) / 60)).padStart(2, '0')}:${String(s % 60).padStart(2, '0')}`;
}

/**
 * Clock readings after each ply for both players: each move spends a share of what is left. A game lost on time
 * leaves the loser (the side to move after the last ply) a few seconds at its last move, as a flag follows a
 * scramble.
 */
function simulateClocks(rng: Rng, plies: number, base: number, inc: number, flagged: boolean): number[] {
  const left = [base, base];
  const out: number[] = [];
  for (let i = 0; i < plies; i += 1) {
    const side = i % 2;
    const spend = Math.min(left[side] - 0.5, left[side] * (0.01 + rng.next() * 0.07) + rng.next() * 2);
    left[side] = Math.max(0.5, left[side] - Math.max(0.1, spend)) + inc;
    out.push(Math.round(left[side]));
  }
  if (flagged && plies >= 2) out[plies - 2] = Math.min(out[plies - 2], 1 + Math.floor(rng.next() * 4));
  return out;
}

function movetext(san: string[], clocks: number[] | null, result: string): string {
  const parts: string[] = [];
  san.forEach((m, i) => {
    if (i % 2 === 0) parts.push(`${i / 2 + 1}.`);
    parts.push(m);
    if (clocks) parts.push(`{[%clk ${clock(clocks[i])}]}`);
  });
  parts.push(result);
  return parts.join(' ');
}

function utc(ms: number): { date: string; time: string; iso: string } {
  const iso = new Date(ms).toISOString();
  return { iso, date: iso.slice(0, 10).replace(/-/g, '.'), time: iso.slice(11, 19) };
}

/**
 * N realistic games over the last ~2.2 years: chess.com and lichess games with legal full move
 * lists (real opening lines, then an engine game at the players' strengths shipped in data/demo), clocks and
 * some platform accuracies; ECF over-the-board results with no moves; a few manual entries (opening only) and PGN imports.
 * Ratings evolve per provider and time class from the results. Deterministic for a seed.
 */
export const seedGames: DemoSeeder = (demo) => {
  const { rng, store, clock: now, user } = demo;
  const end = now.now().getTime();
  const start = end - Math.round(2.2 * 365.25 * 86_400_000);
  const { siteA: handleA, siteB: handleB, fed: fedRef } = DEMO_ACCOUNTS;
  store.db.update(users).set({ usernameSiteA: handleA, usernameSiteB: handleB }).where(eq(users.id, user.id)).run();
  const lastSync = new Date(end - 2 * 3_600_000).toISOString();
  store.db
    .insert(connections)
    .values(
      (
        [
          ['siteA', handleA],
          ['siteB', handleB],
          ['fed', fedRef],
        ] as const
      ).map(([provider, externalId]) => ({
        id: crypto.randomUUID(),
        userId: user.id,
        provider,
        externalId,
        ...demoConnectionState,
        connectedAt: new Date(start).toISOString(),
        lastSyncedAt: lastSync,
      })),
    )
    .onConflictDoNothing()
    .run();

  const times = Array.from({ length: demo.games }, () => start + rng.next() * (end - start)).sort((a, b) => a - b);
  const ratings = new Map<string, number>();
  const openingNames = new Map<string, { eco: string | null; name: string | null }>();
  const batch: Array<{ game: NewGame; pgnText?: string }> = [];
  const draw = playedGameDrawer();
  times.forEach((t, i) => {
    const roll = rng.next();
    const provider = roll < 0.42 ? 'siteB' : roll < 0.82 ? 'siteA' : roll < 0.94 ? 'fed' : roll < 0.97 ? 'manual' : 'pgn';
    const colour = rng.chance(0.5) ? 'white' : 'black';
    // The player slowly improves over the period: about +120 points of true strength.
    const growth = 120 * ((t - start) / (end - start));
    const { iso, date, time } = utc(t);
    if (provider === 'fed') {
      const cls = rng.chance(0.75) ? 'standard' : 'rapid';
      const key = `fed:${cls}`;
      const rating = ratings.get(key) ?? FED_START[cls];
      const opp = Math.round(rating + rng.normal(0, 140));
      const result = sampleResult(rng, expected(FED_START[cls] + growth, opp), 0.22);
      const delta = Math.round(20 * (SCORE[result] - expected(rating, opp)));
      ratings.set(key, rating + delta);
      const event = `${rng.pick(OTB_EVENTS)} ${iso.slice(0, 4)}`;
      batch.push({
        game: {
          userId: user.id,
          provider: 'fed',
          sourceId: `demo-fed-${i}`,
          playedAt: `${iso.slice(0, 10)}T00:00:00.000Z`,
          colour,
          result,
          opponent: personName(rng),
          opponentRating: opp,
          userRating: rating,
          ratingDelta: delta,
          timeClass: cls,
          timeControl: null,
          rated: true,
          eco: null,
          opening: null,
          event,
          movesCount: 0,
          platformAccuracy: null,
          reviewAccuracy: null,
          sourceUrl: `https://rating.englishchess.org.uk/v2/new/player.php?ref_code=${fedRef}`,
          sanMoves: null,
          movesSource: null,
          movesKey: null,
          pgnHash: null,
          clocks: null,
        },
      });
      return;
    }
    const cls: OnlineClass = rng.pick(['bullet', 'blitz', 'blitz', 'blitz', 'rapid', 'rapid'] as const);
    const site = provider === 'siteA' || provider === 'siteB' ? provider : 'siteB';
    const key = `${site}:${cls}`;
    const rating = ratings.get(key) ?? ONLINE_START[site][cls];
    const opp = Math.round(rating + rng.normal(0, 110));
    const line = pickLine(rng, colour);
    const drawnResult = sampleResult(rng, Math.max(0.03, Math.min(0.97, expected(ONLINE_START[site][cls] + growth, opp) + line.edge)), 0.07);
    // The moves are an engine game of this line (src/demo/playedGames.ts); its own result stands.
    const played = draw(line.moves, colour, rating, pgnResult(colour, drawnResult));
    const play = replayDrawn(played);
    const result = playerResult(colour, played.result);
    const delta = provider === 'manual' || provider === 'pgn' ? null : Math.round(16 * (SCORE[result] - expected(rating, opp)));
    if (delta !== null) ratings.set(key, rating + delta);
    const lineKey = line.moves.join(' ');
    if (!openingNames.has(lineKey)) {
      const m = classifyOpening(line.moves);
      openingNames.set(lineKey, { eco: m?.eco ?? null, name: m?.name ?? null });
    }
    const opening = openingNames.get(lineKey)!;
    const opponent = provider === 'manual' || provider === 'pgn' ? personName(rng) : onlineHandle(rng);
    const me = provider === 'siteA' ? handleA : provider === 'siteB' ? handleB : user.displayName;
    const [white, black] = colour === 'white' ? [me, opponent] : [opponent, me];
    const [whiteElo, blackElo] = colour === 'white' ? [rating, opp] : [opp, rating];
    const tc: { base: number; inc: number } = rng.pick<{ base: number; inc: number }>(DEMO_TIME_CONTROLS[cls]);
    const resultTag = pgnResult(colour, result);

    if (provider === 'manual') {
      // A game entered by hand: only the opening line was recorded, so only that is stored.
      batch.push({
        game: {
          userId: user.id,
          provider,
          sourceId: `demo-manual-${i}`,
          playedAt: iso,
          colour,
          result,
          opponent,
          opponentRating: opp,
          userRating: null,
          ratingDelta: null,
          timeClass: 'classical',
          timeControl: null,
          rated: false,
          eco: opening.eco,
          opening: opening.name,
          event: 'Club night',
          movesCount: Math.ceil(line.moves.length / 2),
          platformAccuracy: null,
          reviewAccuracy: null,
          sourceUrl: `chess-footprint:manual/${i}`,
          sanMoves: line.moves.join(' '),
          movesSource: 'opening-only',
          movesKey: null,
          pgnHash: null,
          clocks: null,
        },
      });
      return;
    }

    const online = provider === 'siteA' || provider === 'siteB';
    const clocks = online ? simulateClocks(rng, play.san.length, tc.base, tc.inc, played.end === 'time') : null;
    const siteUrl = provider === 'siteA' ? `https://www.chess.com/game/live/${100_000_000_000 + i}` : provider === 'siteB' ? `https://lichess.org/${sha256(`demo${i}`).slice(0, 8)}` : `chess-footprint:pgn/${i}`;
    const headers: Array<[string, string]> = [
      ['Event', provider === 'siteA' ? 'Live Chess' : provider === 'siteB' ? `Rated ${cls} game` : 'Club championship'],
      ['Site', provider === 'pgn' ? 'Club' : siteUrl],
      ['Date', date],
      ['White', white],
      ['Black', black],
      ['Result', resultTag],
      ['WhiteElo', String(whiteElo)],
      ['BlackElo', String(blackElo)],
      ['UTCDate', date],
      ['UTCTime', time],
      ...(online ? ([['TimeControl', `${tc.base}+${tc.inc}`]] as Array<[string, string]>) : []),
      ...(opening.eco ? ([['ECO', opening.eco]] as Array<[string, string]>) : []),
      ...(opening.name ? ([['Opening', opening.name]] as Array<[string, string]>) : []),
      ['Termination', terminationText(played, white, black)],
    ];
    const pgnText = `${headers.map(([k, v]) => `[${k} "${v}"]`).join('\n')}\n\n${movetext(play.san, clocks, resultTag)}\n`;
    const hasAccuracy = provider === 'siteA' ? rng.chance(0.6) : provider === 'siteB' ? rng.chance(0.25) : false;
    batch.push({
      pgnText,
      game: {
        userId: user.id,
        provider,
        sourceId: provider === 'siteA' ? String(100_000_000_000 + i) : provider === 'siteB' ? siteUrl.slice(-8) : `demo-pgn-${i}`,
        playedAt: iso,
        colour,
        result,
        opponent,
        opponentRating: opp,
        userRating: provider === 'pgn' ? null : rating,
        ratingDelta: delta,
        timeClass: provider === 'pgn' ? 'classical' : cls,
        timeControl: online ? `${tc.base}+${tc.inc}` : null,
        rated: online,
        eco: opening.eco,
        opening: opening.name,
        event: provider === 'pgn' ? 'Club championship' : null,
        movesCount: Math.ceil(play.san.length / 2),
        platformAccuracy: hasAccuracy ? Math.round(Math.max(35, Math.min(98, rng.normal(result === 'win' ? 82 : 72, 8))) * 10) / 10 : null,
        reviewAccuracy: null,
        sourceUrl: siteUrl,
        sanMoves: play.san.join(' '),
        movesSource: 'pgn',
        movesKey: movesKey(START_FEN, play.uci),
        pgnHash: sha256(pgnText),
        clocks: clocks ? JSON.stringify(clocks) : null,
      },
    });
  });
  for (let i = 0; i < batch.length; i += 500) insertGames(store, demo.clock, batch.slice(i, i + 500));
  demo.log(`demo: ${batch.length} games`);
};

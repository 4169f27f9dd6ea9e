import { readFileSync } from 'node:fs';
import type { TestApp } from '../../helpers/app.js';
import { fixturePath } from '../../helpers/fixtures.js';
import type { FixtureServer } from '../../helpers/fixtureServer.js';
import { addGames, gameRow } from '../../helpers/games.js';

// lichess's own example answers for 1.d4 d5 2.c4 c6 3.cxd5 (test/fixtures/explorer/SOURCE.md).
export const LICHESS = readFileSync(fixturePath('explorer', 'lichess.example.json'), 'utf8');
export const MASTERS = readFileSync(fixturePath('explorer', 'masters.example.json'), 'utf8');
// The position after 1.d4 d5 2.c4 c6 3.cxd5: placement, side to move, castling (the explorer's fen parameter carries more).
export const SLAV_EXCHANGE = 'rnbqkbnr/pp2pppp/2p5/3P4/3P4/8/PP2PPPP/RNBQKBNR b KQkq';
// What lichess answers for a position (or filter) with no games: the same shape, zeros.
export const EMPTY = JSON.stringify({ white: 0, draws: 0, black: 0, moves: [], topGames: [], recentGames: [], opening: null });

export const tick = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** A local explorer: the real answers at the Slav exchange, zeros elsewhere; 401 without the expected token. */
export function playExplorer(server: FixtureServer, token = 'lip_owner') {
  const asked: URL[] = [];
  const answer = (body: string) => (req: Parameters<Parameters<FixtureServer['route']>[1]>[0], res: Parameters<Parameters<FixtureServer['route']>[1]>[1], url: URL) => {
    asked.push(url);
    if (req.headers.authorization !== `Bearer ${token}`) return void res.writeHead(401, { 'content-type': 'application/json' }).end('{"error":"No such token"}');
    const fen = url.searchParams.get('fen') ?? '';
    res.writeHead(200, { 'content-type': 'application/json' }).end(fen.startsWith(SLAV_EXCHANGE) ? body : EMPTY);
  };
  server.route('/lichess', answer(LICHESS));
  server.route('/masters', answer(MASTERS));
  return asked;
}

/**
 * The owner's games as black (lichess blitz, rated; newest rating 1650 → rating group 1600). All 11 reach
 * 1.d4 d5 2.c4 c6 3.cxd5; there they played 3...cxd5 five times (W W D L L: 50%), 3...Qxd5 three times
 * (L L D: 16.7%) and 3...c5 three times (L W L: 33.3%).
 */
export function addSlavGames(app: TestApp, userId: string) {
  const played: Array<[string, 'win' | 'draw' | 'loss']> = [
    ['cxd5', 'win'], ['cxd5', 'win'], ['cxd5', 'draw'], ['cxd5', 'loss'], ['cxd5', 'loss'],
    ['Qxd5', 'loss'], ['Qxd5', 'loss'], ['Qxd5', 'draw'],
    ['c5', 'loss'], ['c5', 'win'], ['c5', 'loss'],
  ];
  addGames(
    app.deps.store,
    app.clock,
    played.map(([move, result], i) =>
      gameRow(userId, {
        sourceId: `slav${i}`,
        colour: 'black',
        result,
        playedAt: `2026-10-${String(10 + i).padStart(2, '0')}T12:00:00.000Z`,
        userRating: 1640,
        ratingDelta: i === played.length - 1 ? 10 : 3,
        sanMoves: `d4 d5 c4 c6 cxd5 ${move}`,
        movesSource: 'pgn',
      }),
    ),
  );
}


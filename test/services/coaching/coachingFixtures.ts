import { randomUUID } from 'node:crypto';
import { sql } from 'drizzle-orm';
import { parsePgn, replaySan } from '../../../src/chess/pgn.js';
import type { PersonalCtx } from '../../../src/context.js';
import { insertGames, movesColumns, storePgn } from '../../../src/services/games/gameWriter.js';
import { games } from '../../../src/store/schema/index.js';
import type { Store } from '../../../src/store/db.js';

/** The Opera game, Paris 1858 (Morphy v Duke Karl of Brunswick and Count Isouard). */
export const OPERA_PGN = `[Event "Casual game"]
[Site "Paris FRA"]
[Date "1858.??.??"]
[White "Morphy, Paul"]
[Black "Duke Karl of Brunswick and Count Isouard"]
[Result "1-0"]

1. e4 e5 2. Nf3 d6 3. d4 Bg4 4. dxe5 Bxf3 5. Qxf3 dxe5 6. Bc4 Nf6 7. Qb3 Qe7
8. Nc3 c6 9. Bg5 b5 10. Nxb5 cxb5 11. Bxb5+ Nbd7 12. O-O-O Rd8 13. Rxd7 Rxd7
14. Rd1 Qe6 15. Bxd7+ Nxd7 16. Qb8+ Nxb8 17. Rd8# 1-0`;

/** Legal positions taken by replaying the Opera game: the position after each ply. */
export const OPERA_FENS = parsePgn(OPERA_PGN).plies.map((p) => p.fenAfter);

/** The position after 1.e4 e5 2.Nf3 Nc6 3.Bb5, replayed. */
export const RUY_LOPEZ_FEN = replaySan(['e4', 'e5', 'Nf3', 'Nc6', 'Bb5'])!.at(-1)!.fenAfter;

export function countRows(store: Store, table: string): number {
  return (store.sqlite.prepare(`SELECT count(*) AS n FROM ${table}`).get() as { n: number }).n;
}

/** A played game of the owner with the full Opera game stored; returns its id. */
export function addPlayedGame(ctx: PersonalCtx, opts: { withMoves?: boolean } = {}): string {
  const parsed = parsePgn(OPERA_PGN);
  const sourceId = randomUUID();
  const now = ctx.clock.now().toISOString();
  const moveCols = opts.withMoves === false ? { movesCount: 0 } : movesColumns(parsed, storePgn(ctx.store, OPERA_PGN, now));
  insertGames(ctx.store, ctx.clock, [
    {
      game: {
        userId: ctx.user.id,
        provider: 'pgn',
        sourceId,
        playedAt: '1858-01-01T00:00:00Z',
        colour: 'white',
        result: 'win',
        opponent: 'Duke Karl',
        timeClass: 'classical',
        rated: false,
        sourceUrl: 'https://example.test/opera',
        ...moveCols,
      },
    },
  ]);
  return ctx.store.db.select({ id: games.id }).from(games).where(sql`${games.sourceId} = ${sourceId}`).get()!.id;
}

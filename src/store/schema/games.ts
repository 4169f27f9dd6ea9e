import { index, integer, real, sqliteTable, text, uniqueIndex } from 'drizzle-orm/sqlite-core';
import { users } from './accounts.js';

/** Content-addressed PGN text: the key is the SHA-256 of the exact text. */
export const pgns = sqliteTable('pgns', {
  hash: text('hash').primaryKey(),
  text: text('text').notNull(),
  createdAt: text('created_at').notNull(),
  // The Termination tag (PGN standard 9.8.1: how the game ended, "Time forfeit", "X won on time"),
  // read once when the immutable text is stored: the insight views count losses on time over
  // 10,000 games without reading their PGNs (issue 13).
  termination: text('termination'),
});

export const games = sqliteTable(
  'games',
  {
    id: text('id').primaryKey(),
    userId: text('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    provider: text('provider', { enum: ['siteA', 'siteB', 'fed', 'manual', 'pgn'] }).notNull(),
    // The source's own id (or a derived natural key for ECF rows): re-syncs are idempotent.
    sourceId: text('source_id').notNull(),
    playedAt: text('played_at').notNull(),
    // The PGN Date as written when only its year, or year and month, is known ("1934.??.??"); playedAt then
    // holds the first day of that period. Null when the date is exact.
    dateText: text('date_text'),
    colour: text('colour', { enum: ['white', 'black'] }).notNull(),
    result: text('result', { enum: ['win', 'draw', 'loss'] }).notNull(),
    opponent: text('opponent').notNull(),
    opponentRating: integer('opponent_rating'),
    // Rating before the game, as the source's PGN headers record it; after = userRating + ratingDelta.
    userRating: integer('user_rating'),
    ratingDelta: integer('rating_delta'),
    timeClass: text('time_class').notNull(),
    timeControl: text('time_control'),
    rated: integer('rated', { mode: 'boolean' }).notNull(),
    eco: text('eco'),
    opening: text('opening'),
    event: text('event'),
    movesCount: integer('moves_count').notNull(),
    platformAccuracy: real('platform_accuracy'),
    // The user's accuracy from this project's engine review, copied here when a review completes.
    reviewAccuracy: real('review_accuracy'),
    sourceUrl: text('source_url').notNull(),
    // Mainline SAN, space-separated: from the stored PGN, or the recorded opening line only.
    sanMoves: text('san_moves'),
    movesSource: text('moves_source', { enum: ['pgn', 'opening-only'] }),
    // movesKey (src/chess/pgn.ts) of the full stored game: links it to a shared engine analysis.
    movesKey: text('moves_key'),
    pgnHash: text('pgn_hash').references(() => pgns.hash),
    // Seconds on the clock after each ply, JSON array, where the source records clocks.
    clocks: text('clocks'),
    // Bumped by every change to the row: attach compares it to refuse a concurrent write (409).
    version: integer('version').notNull().default(1),
    createdAt: text('created_at').notNull(),
  },
  (t) => [
    uniqueIndex('games_source').on(t.userId, t.provider, t.sourceId),
    // id breaks ties in the list's date order, so the first page is read straight off this index.
    index('games_user_played').on(t.userId, t.playedAt, t.id),
    index('games_user_provider_played').on(t.userId, t.provider, t.playedAt),
    index('games_moves_key').on(t.movesKey),
    // Covers the list filters, counts and accuracy sorts (id is the last tie-break), so choosing a page
    // never reads the wide rows (moves, clocks): only the 50 chosen are read (src/services/games/games.ts).
    index('games_user_filters').on(
      t.userId,
      t.provider,
      t.result,
      t.timeClass,
      t.colour,
      t.playedAt,
      t.movesCount,
      t.platformAccuracy,
      t.reviewAccuracy,
      t.opening,
      t.opponent,
      t.eco,
      t.event,
      t.id,
    ),
    // lineMoves filters are a range on the SAN mainline (src/services/games/games.ts); date and id let the
    // page be chosen from the index alone.
    index('games_user_san').on(t.userId, t.sanMoves, t.playedAt, t.id),
  ],
);

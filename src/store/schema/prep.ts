import { index, integer, primaryKey, sqliteTable, text, uniqueIndex } from 'drizzle-orm/sqlite-core';
import { users } from './accounts.js';

/**
 * A public player the owner scouted (issue 29): one row per owner, source and username. Owned by the
 * owner who asked; another owner scouting the same player gets a row (and games) of their own.
 */
export const scouts = sqliteTable(
  'scouts',
  {
    id: text('id').primaryKey(),
    userId: text('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    provider: text('provider', { enum: ['siteA', 'siteB'] }).notNull(),
    // Lower-cased: both sites treat usernames case-insensitively.
    username: text('username').notNull(),
    // The bounds the games were fetched with: the newest `maxGames` of the last `months` months.
    maxGames: integer('max_games').notNull(),
    months: integer('months').notNull(),
    // Where the next fetch resumes (lichess: newest createdAt; chess.com: months with validators), JSON.
    cursor: text('cursor').notNull().default('{}'),
    // demo: a made-up player of the demo store, never fetched (src/demo/prep.ts).
    status: text('status', { enum: ['never-fetched', 'ok', 'error', 'demo'] }).notNull(),
    statusMessage: text('status_message'),
    fetchedAt: text('fetched_at'),
    createdAt: text('created_at').notNull(),
  },
  (t) => [uniqueIndex('scouts_owner_player').on(t.userId, t.provider, t.username)],
);

/**
 * Who is fetching a scout now (issue 44 item 7; migration 0019): `serve` and `mcp` over stdio on one data folder each
 * run their own scout runner, so the row names the process holding the scout's fetch and until when (epoch ms) its
 * claim holds (src/services/common/storeLease.ts). Another process reading the player meanwhile reports that fetch
 * and starts none; a claim past its time, or of a process of this machine that exited, is free.
 */
export const scoutLease = sqliteTable('scout_lease', {
  scoutId: text('scout_id')
    .primaryKey()
    .references(() => scouts.id, { onDelete: 'cascade' }),
  holder: text('holder').notNull(),
  expiresAt: integer('expires_at').notNull(),
});

/**
 * A scouted player's games, apart from the owner's `games` table so no owner view (list_games, stats,
 * reports, weakness) can ever count them. Colour and result are the scouted player's.
 */
export const scoutGames = sqliteTable(
  'scout_games',
  {
    scoutId: text('scout_id')
      .notNull()
      .references(() => scouts.id, { onDelete: 'cascade' }),
    sourceId: text('source_id').notNull(),
    playedAt: text('played_at').notNull(),
    colour: text('colour', { enum: ['white', 'black'] }).notNull(),
    result: text('result', { enum: ['win', 'draw', 'loss'] }).notNull(),
    opponent: text('opponent').notNull(),
    opponentRating: integer('opponent_rating'),
    rating: integer('rating'),
    timeClass: text('time_class').notNull(),
    rated: integer('rated', { mode: 'boolean' }).notNull(),
    eco: text('eco'),
    opening: text('opening'),
    // Mainline SAN, space-separated; empty when the source sent no moves.
    sanMoves: text('san_moves').notNull(),
  },
  (t) => [primaryKey({ columns: [t.scoutId, t.sourceId] }), index('scout_games_played').on(t.scoutId, t.playedAt)],
);

/**
 * The owner's declared repertoire for one colour: the PGN it was declared with (variations kept) and
 * the positions it reaches, derived once when it is declared (JSON, src/chess/repertoire.ts).
 */
export const repertoires = sqliteTable(
  'repertoires',
  {
    userId: text('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    colour: text('colour', { enum: ['white', 'black'] }).notNull(),
    source: text('source', { enum: ['pgn', 'lines', 'study', 'demo'] }).notNull(),
    studyGameId: text('study_game_id'),
    pgn: text('pgn').notNull(),
    positions: text('positions').notNull(),
    updatedAt: text('updated_at').notNull(),
  },
  (t) => [primaryKey({ columns: [t.userId, t.colour] })],
);

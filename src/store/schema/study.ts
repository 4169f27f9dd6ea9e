import { index, integer, primaryKey, sqliteTable, text, uniqueIndex } from 'drizzle-orm/sqlite-core';
import { users } from './accounts.js';
import { pgns } from './games.js';

/**
 * The personal study collection: games a user wants to study, separate from played games.
 * One row per distinct mainline per user (unique movesKey), so re-uploading the same moves with
 * other headers, comments or clocks lands on the same row and reads the owner's same `analyses` row.
 */
export const studyGames = sqliteTable(
  'study_games',
  {
    id: text('id').primaryKey(),
    userId: text('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    // movesKey (src/chess/pgn.ts): identity of the mainline; joins to analyses.moves_key.
    movesKey: text('moves_key').notNull(),
    startFen: text('start_fen').notNull(),
    // Mainline, space-separated, in SAN and in UCI (the engine queue takes UCI).
    sanMoves: text('san_moves').notNull(),
    uciMoves: text('uci_moves').notNull(),
    plyCount: integer('ply_count').notNull(),
    // The PGN header tags of the first upload, as a JSON object.
    headers: text('headers').notNull(),
    result: text('result').notNull(),
    eco: text('eco'),
    opening: text('opening'),
    // The first uploaded PGN text, content-addressed (shared with anything else holding the same text).
    pgnHash: text('pgn_hash')
      .notNull()
      .references(() => pgns.hash),
    createdAt: text('created_at').notNull(),
  },
  (t) => [uniqueIndex('study_games_user_moves').on(t.userId, t.movesKey), index('study_games_user_created').on(t.userId, t.createdAt)],
);

/** Per-ply notes of a study game (ply 0: the comment before the first move). Deleted with the game. */
export const studyNotes = sqliteTable(
  'study_notes',
  {
    studyGameId: text('study_game_id')
      .notNull()
      .references(() => studyGames.id, { onDelete: 'cascade' }),
    ply: integer('ply').notNull(),
    text: text('text').notNull(),
    createdAt: text('created_at').notNull(),
  },
  (t) => [primaryKey({ columns: [t.studyGameId, t.ply] })],
);

import { z } from 'zod';

/**
 * The classic-games library (spec 4.4). Output names are fixed by issue 7; the data lives in
 * `data/library/<slug>/` (game.pgn, meta.json, essay.md, and accuracy.json once the project's own
 * review pipeline has analysed the game).
 */

/** Periods of chess history used to group the library; boundaries are editorial, by year played. */
export const LibraryEra = z
  .enum(['romantic', 'classical', 'interwar', 'soviet', 'modern', 'engine'])
  .describe(
    'Era of chess history: romantic (before 1880), classical (1880–1919), interwar (1920–1945), soviet (1946–1969, the Soviet school), modern (1970–1999), engine (2000 on)',
  );

/** Themes a game is filed under; a game carries one or more. */
export const LibraryTheme = z
  .enum([
    'attack',
    'sacrifice',
    'king-hunt',
    'combination',
    'positional',
    'prophylaxis',
    'endgame',
    'defence',
    'zugzwang',
    'opening',
    'miniature',
    'world-championship',
    'human-vs-computer',
  ])
  .describe(
    'Theme: attack, sacrifice, king-hunt, combination, positional, prophylaxis, endgame, defence, zugzwang, opening (a game remembered for its opening), miniature (25 moves or fewer), world-championship (a title match game), human-vs-computer',
  );

export const LibraryResult = z.enum(['1-0', '0-1', '1/2-1/2']).describe('Result: 1-0 White won, 0-1 Black won, 1/2-1/2 drawn');

const slug = z.string().describe('Library slug (lowercase kebab, e.g. anderssen-kieseritzky-1851); pass it to get_library_game');
const white = z.string().describe('White player as given in the PGN (Surname, Forenames)');
const black = z.string().describe('Black player as given in the PGN (Surname, Forenames)');
const event = z.string().describe('Event, from the PGN Event header');
const site = z.string().describe('Site, from the PGN Site header');
const date = z.string().describe('Date played, PGN style YYYY.MM.DD with ?? for parts not known');
const eco = z.string().describe('ECO code, from the PGN header (or classified from the moves when the header lacks one)');
const opening = z.string().describe('Opening name from the lichess chess-openings classification of the moves');

/** meta.json of one library entry, as stored on disk. */
export const LibraryMeta = z
  .object({
    slug,
    white,
    black,
    event,
    site,
    date,
    result: LibraryResult,
    eco,
    opening,
    era: LibraryEra,
    themes: z.array(LibraryTheme).min(1).describe('Themes the game is filed under'),
    summary: z.string().min(1).describe('One-line summary of why the game is in the library'),
    source: z.string().min(1).describe('Source citation: where the score comes from and what it was cross-checked against'),
  })
  .strict()
  .describe('One library entry (meta.json)');
export type LibraryMeta = z.infer<typeof LibraryMeta>;

/** accuracy.json, written by the project's review pipeline; never hand-made. */
export const LibraryAccuracyFile = z
  .object({
    white: z.number().min(0).max(100),
    black: z.number().min(0).max(100),
    engine: z.string().min(1),
    depth: z.number().int().positive(),
    nodesPerPosition: z.number().int().positive().nullable().optional(),
    analysedAt: z.string().optional(),
  })
  .describe('accuracy.json written by the review pipeline');
export type LibraryAccuracyFile = z.infer<typeof LibraryAccuracyFile>;

/**
 * Any string is accepted (up to a sanity bound) so that a malformed slug gets the same 404 as an
 * unknown one, instead of a validation error that would tell them apart.
 */
export const GetLibraryGameInput = z
  .object({
    slug: z.string().max(4096).describe('Slug from list_library_games (lowercase kebab, e.g. anderssen-kieseritzky-1851)'),
  })
  .strict();

export const ListLibraryGamesInput = z
  .object({
    era: LibraryEra.optional().describe(
      'Only games of this era: romantic (before 1880), classical (1880–1919), interwar (1920–1945), soviet (1946–1969), modern (1970–1999), engine (2000 on)',
    ),
    theme: LibraryTheme.optional().describe(
      'Only games filed under this theme (attack, sacrifice, king-hunt, combination, positional, prophylaxis, endgame, defence, zugzwang, opening, miniature, world-championship, human-vs-computer)',
    ),
  })
  .strict();

export const LibraryGameSummary = LibraryMeta.omit({ source: true }).describe('One library game in the listing');

export const ListLibraryGamesOutput = z
  .object({
    games: z
      .array(LibraryGameSummary)
      .describe('Published games in chronological order (by date played, then slug), narrowed by era and theme when given'),
  })
  .describe('The classic-games library');

export const LibraryAccuracy = z
  .object({
    white: z.number().describe("White's overall accuracy, 0–100, from this project's own review pipeline"),
    black: z.number().describe("Black's overall accuracy, 0–100, from this project's own review pipeline"),
    engine: z.string().describe('Engine name and version that produced the figures'),
    depth: z.number().int().describe('Search depth per position'),
  })
  .nullable()
  .describe("Both players' overall engine accuracy from this project's review pipeline; null when not computed yet");

export const LibraryGameDetail = LibraryMeta.extend({
  essay: z
    .string()
    .describe('Editorial essay (Markdown, 300–600 words) written for this project: why the game matters, its turning points by move number, what a club player should learn'),
  pgn: z.string().describe('Canonical PGN of the game, headers and moves, no annotations'),
  accuracy: LibraryAccuracy,
}).describe('One classic game');

import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { z } from 'zod';
import {
  LibraryAccuracyFile,
  LibraryMeta,
  type LibraryGameDetail,
  type ListLibraryGamesInput,
  type ListLibraryGamesOutput,
} from '../../../schemas/library.js';
import { parsePgn } from '../../chess/pgn.js';
import { ApiError } from '../../errors.js';
import { dataDir } from '../../paths.js';

/**
 * The classic-games library: read-only editorial data shipped in `data/library/<slug>/`.
 * Loaded once per process; a broken entry fails the load loudly rather than serving half a library.
 */

/** One message for every slug that is not served (unknown, malformed, unpublished), so nothing leaks. */
export const LIBRARY_NOT_FOUND = 'no published library game with that slug; call list_library_games for slugs';

const SLUG = /^[a-z0-9]+(?:-[a-z0-9]+)*$/;

export interface LibraryEntry {
  meta: LibraryMeta;
  essay: string;
  pgn: string;
  /** From accuracy.json when the review pipeline has written it; null until then. */
  accuracy: z.infer<typeof LibraryAccuracyFile> | null;
}

export interface Library {
  /** Chronological: by date played, then slug. */
  entries: LibraryEntry[];
  bySlug: Map<string, LibraryEntry>;
}

/** Date strings are PGN style (YYYY.MM.DD, ?? for unknown), so "?" sorting before digits keeps a year's undated games first. */
function chronological(a: LibraryEntry, b: LibraryEntry): number {
  const d = a.meta.date.localeCompare(b.meta.date);
  return d !== 0 ? d : a.meta.slug.localeCompare(b.meta.slug);
}

/**
 * Reads every published entry under `root`. A folder is published when it holds meta.json,
 * essay.md and game.pgn; each is validated (meta shape, slug = folder name, PGN parses).
 */
export function loadLibrary(root: string = join(dataDir, 'library')): Library {
  const entries: LibraryEntry[] = [];
  if (existsSync(root)) {
    for (const name of readdirSync(root, { withFileTypes: true })) {
      if (!name.isDirectory()) continue;
      const dir = join(root, name.name);
      if (!['meta.json', 'essay.md', 'game.pgn'].every((f) => existsSync(join(dir, f)))) continue;
      const meta = LibraryMeta.parse(JSON.parse(readFileSync(join(dir, 'meta.json'), 'utf8')));
      if (meta.slug !== name.name || !SLUG.test(meta.slug)) {
        throw new Error(`library entry ${name.name}: meta.slug must equal the folder name and be lowercase kebab`);
      }
      const pgn = readFileSync(join(dir, 'game.pgn'), 'utf8').trim() + '\n';
      parsePgn(pgn); // throws on an unparseable score
      const accuracyPath = join(dir, 'accuracy.json');
      const accuracy = existsSync(accuracyPath)
        ? LibraryAccuracyFile.parse(JSON.parse(readFileSync(accuracyPath, 'utf8')))
        : null;
      entries.push({ meta, essay: readFileSync(join(dir, 'essay.md'), 'utf8').trim(), pgn, accuracy });
    }
  }
  entries.sort(chronological);
  return { entries, bySlug: new Map(entries.map((e) => [e.meta.slug, e])) };
}

let cached: Library | null = null;

/** The shipped library, read from disk on first use. */
export function library(): Library {
  cached ??= loadLibrary();
  return cached;
}

export function listLibraryGames(
  input: z.infer<typeof ListLibraryGamesInput>,
  lib: Library = library(),
): z.infer<typeof ListLibraryGamesOutput> {
  const games = lib.entries
    .filter((e) => (input.era ? e.meta.era === input.era : true))
    .filter((e) => (input.theme ? e.meta.themes.includes(input.theme) : true))
    .map(({ meta: { source: _source, ...row } }) => row);
  return { games };
}

export function getLibraryGame(slug: string, lib: Library = library()): z.infer<typeof LibraryGameDetail> {
  // Map lookup only: a malformed slug simply is not a key, and gets the same answer as an unknown one.
  const entry = SLUG.test(slug) ? lib.bySlug.get(slug) : undefined;
  if (!entry) throw new ApiError(404, LIBRARY_NOT_FOUND);
  const { meta, accuracy } = entry;
  return {
    ...meta,
    essay: entry.essay,
    pgn: entry.pgn,
    accuracy: accuracy ? { white: accuracy.white, black: accuracy.black, engine: accuracy.engine, depth: accuracy.depth } : null,
  };
}

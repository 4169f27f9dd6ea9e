import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { LibraryGameDetail, ListLibraryGamesOutput } from '../../../schemas/library.js';
import { parsePgn, type ParsedGame } from '../../../src/chess/pgn.js';
import { dataDir } from '../../../src/paths.js';
import { LIBRARY_NOT_FOUND, getLibraryGame, library, listLibraryGames, loadLibrary } from '../../../src/services/library/library.js';
import { getLibraryGame as getTool } from '../../../tools/library/get_library_game.js';
import { listLibraryGames as listTool } from '../../../tools/library/list_library_games.js';
import { makeTestApp, type TestApp } from '../../helpers/app.js';
import { fixturePath } from '../../helpers/fixtures.js';

const root = join(dataDir, 'library');
/** slug → SHA-256 of the verified classics file (`NN-slug.pgn`), as recorded by `sha256sum`. */
const VERIFIED_SHA256 = new Map(
  readFileSync(fixturePath('classics/games.sha256'), 'utf8')
    .trim()
    .split('\n')
    .map((line) => {
      const [hash, file] = line.split(/\s+/);
      return [file.replace(/^\d+-/, '').replace(/\.pgn$/, ''), hash] as const;
    }),
);
const lib = library();
const replays = new Map<string, ParsedGame>(lib.entries.map((e) => [e.meta.slug, parsePgn(e.pgn)]));

/** Words as a reader counts them: whitespace-separated tokens that contain a letter or digit (Markdown marks excluded). */
function wordCount(text: string): number {
  return text.split(/\s+/).filter((w) => /[\p{L}\p{N}]/u.test(w)).length;
}

/**
 * Every move an essay cites in numbered notation: "12.Nxe5", "12. Nxe5" (White) and "12...Qd7",
 * "12... Qd7" (Black). A White move may be followed by Black's reply ("12.Nxe5 Qd7"): that is
 * checked too, so a pair is only accepted when both halves are in the score.
 */
function citedMoves(essay: string): Array<{ move: number; colour: 'w' | 'b'; san: string; text: string }> {
  const SAN = String.raw`(?:O-O-O|O-O|[KQRBN][a-h]?[1-8]?x?[a-h][1-8]|[a-h](?:x[a-h])?[1-8](?:=[QRBN])?)[+#]?`;
  const re = new RegExp(String.raw`(?<![\w.])(\d{1,3})(\.\.\.|…|\.)\s?(${SAN})(?:\s(${SAN})(?![\w-]))?`, 'g');
  const out: Array<{ move: number; colour: 'w' | 'b'; san: string; text: string }> = [];
  for (const m of essay.matchAll(re)) {
    const move = Number(m[1]);
    if (m[2] === '.') {
      out.push({ move, colour: 'w', san: m[3], text: m[0] });
      if (m[4]) out.push({ move, colour: 'b', san: m[4], text: m[0] });
    } else out.push({ move, colour: 'b', san: m[3], text: m[0] });
  }
  return out;
}

/** The SAN played at move `move` by `colour`, or null when the game has no such ply. */
function sanAt(game: ParsedGame, move: number, colour: 'w' | 'b'): string | null {
  const ply = (move - 1) * 2 + (colour === 'w' ? 1 : 2);
  return game.plies[ply - 1]?.san ?? null;
}

describe('the citation checker', () => {
  // Anderssen–Kieseritzky 1851 by hand: 1.e4 e5 2.f4 exf4 3.Bc4 Qh4+ ... 22.Qf6+ Nxf6 23.Be7#.
  const immortal = parsePgn(
    '1. e4 e5 2. f4 exf4 3. Bc4 Qh4+ 4. Kf1 b5 5. Bxb5 Nf6 6. Nf3 Qh6 7. d3 Nh5 8. Nh4 Qg5 9. Nf5 c6 10. g4 Nf6 11. Rg1 cxb5 12. h4 Qg6 13. h5 Qg5 14. Qf3 Ng8 15. Bxf4 Qf6 16. Nc3 Bc5 17. Nd5 Qxb2 18. Bd6 Bxg1 19. e5 Qxa1+ 20. Ke2 Na6 21. Nxg7+ Kd8 22. Qf6+ Nxf6 23. Be7# 1-0',
  );
  test('reads the three notations and a move pair', () => {
    expect(citedMoves('After 22.Qf6+ Nxf6 23. Be7# and 19...Qxa1+ it was over; 3… Qh4+ too.')).toEqual([
      { move: 22, colour: 'w', san: 'Qf6+', text: '22.Qf6+ Nxf6' },
      { move: 22, colour: 'b', san: 'Nxf6', text: '22.Qf6+ Nxf6' },
      { move: 23, colour: 'w', san: 'Be7#', text: '23. Be7#' },
      { move: 19, colour: 'b', san: 'Qxa1+', text: '19...Qxa1+' },
      { move: 3, colour: 'b', san: 'Qh4+', text: '3… Qh4+' },
    ]);
  });
  test('a wrong number, a wrong colour or a wrong move is caught', () => {
    const bad = citedMoves('21.Qf6+ and 22...Qf6+ and 23.Bd6#');
    expect(bad.map((c) => sanAt(immortal, c.move, c.colour) === c.san)).toEqual([false, false, false]);
    const good = citedMoves('18.Bd6 Bxg1 then 21.Nxg7+');
    expect(good.map((c) => sanAt(immortal, c.move, c.colour) === c.san)).toEqual([true, true, true]);
  });
});

describe('the published library', () => {
  test('holds about fifty games with unique, folder-named kebab slugs', () => {
    expect(lib.entries.length).toBeGreaterThanOrEqual(50);
    const slugs = lib.entries.map((e) => e.meta.slug);
    expect(new Set(slugs).size).toBe(slugs.length);
    for (const s of slugs) expect(s).toMatch(/^[a-z0-9]+(-[a-z0-9]+)*$/);
    // Only game folders and the README at the root, and every game folder is published (no half-made drafts shipped).
    for (const d of readdirSync(root, { withFileTypes: true })) {
      if (!d.isDirectory()) expect(d.name).toBe('README.md');
      else expect(lib.bySlug.has(d.name), `${d.name} is not published`).toBe(true);
    }
  });

  test.each(lib.entries.map((e) => [e.meta.slug, e] as const))('%s replays to its recorded result and headers', (slug, e) => {
    const game = replays.get(slug)!;
    expect(game.plies.length).toBeGreaterThan(0);
    expect(game.headers.Result).toBe(e.meta.result);
    expect(game.result).toBe(e.meta.result);
    expect(game.headers.White).toBe(e.meta.white);
    expect(game.headers.Black).toBe(e.meta.black);
    expect(game.headers.Date).toBe(e.meta.date);
    const last = game.plies[game.plies.length - 1];
    const mated = last.san.endsWith('#');
    if (mated) {
      // The side that gave mate made the last move: odd ply = White.
      expect(e.meta.result).toBe(game.plies.length % 2 === 1 ? '1-0' : '0-1');
    } else {
      // Not mate: a resignation or a loss on time, so the recorded result is decisive or drawn, never "*".
      expect(['1-0', '0-1', '1/2-1/2']).toContain(e.meta.result);
    }
    // The canonical score is the verified classics file byte for byte: its SHA-256 is the one recorded
    // from the verified collection (test/fixtures/classics/, with that collection's SOURCES.md).
    const verified = VERIFIED_SHA256.get(slug);
    expect(verified, `${slug} is not in the verified collection`).toBeDefined();
    expect(createHash('sha256').update(readFileSync(join(root, slug, 'game.pgn'))).digest('hex')).toBe(verified);
  });

  test.each(lib.entries.map((e) => [e.meta.slug, e] as const))('%s: essay is 300–600 words', (_slug, e) => {
    const n = wordCount(e.essay);
    expect(n).toBeGreaterThanOrEqual(300);
    expect(n).toBeLessThanOrEqual(600);
  });

  test.each(lib.entries.map((e) => [e.meta.slug, e] as const))('%s: every move the essay and summary cite is in the score', (slug, e) => {
    const game = replays.get(slug)!;
    expect(citedMoves(e.essay).length).toBeGreaterThanOrEqual(3); // an essay that names no moves cannot describe turning points
    const cited = [...citedMoves(e.essay), ...citedMoves(e.meta.summary)];
    const wrong = cited.filter((c) => sanAt(game, c.move, c.colour) !== c.san).map((c) => `${c.text} (${c.colour} ${c.move}: game has ${sanAt(game, c.move, c.colour)})`);
    expect(wrong).toEqual([]);
  });

  test.each(lib.entries.map((e) => [e.meta.slug, e] as const))('%s: era matches the year and tags match the game', (slug, e) => {
    const year = Number(e.meta.date.slice(0, 4));
    // Era boundaries as documented on LibraryEra.
    const era = year < 1880 ? 'romantic' : year < 1920 ? 'classical' : year < 1946 ? 'interwar' : year < 1970 ? 'soviet' : year < 2000 ? 'modern' : 'engine';
    expect(e.meta.era).toBe(era);
    // "miniature" is documented as 25 moves or fewer.
    if (e.meta.themes.includes('miniature')) expect(Math.ceil(replays.get(slug)!.plies.length / 2)).toBeLessThanOrEqual(25);
    // "world-championship" only for title-match games, whose Event header says so.
    if (e.meta.themes.includes('world-championship')) expect(e.meta.event).toMatch(/World Championship/);
    expect(new Set(e.meta.themes).size).toBe(e.meta.themes.length);
  });

  test('listing is chronological and every entry validates against the output schema', () => {
    const { games } = ListLibraryGamesOutput.parse(listLibraryGames({}, lib));
    const dates = games.map((g) => g.date);
    expect([...dates].sort()).toEqual(dates);
  });
});

describe('list_library_games and get_library_game through the tool path', () => {
  let app: TestApp;
  beforeAll(() => {
    app = makeTestApp();
  });
  afterAll(() => app.close());

  test('lists every published game, oldest first, without essays or PGN', async () => {
    const res = await app.call(listTool, {});
    expect(res.status).toBe(200);
    const body = ListLibraryGamesOutput.parse(res.body);
    expect(body.games.map((g) => g.slug)).toEqual(lib.entries.map((e) => e.meta.slug));
    for (const g of body.games) {
      expect(Object.keys(g).sort()).toEqual(
        ['black', 'date', 'eco', 'era', 'event', 'opening', 'result', 'site', 'slug', 'summary', 'themes', 'white'],
      );
    }
  });

  test('filters by era and by theme, and both together', async () => {
    const romantic = ListLibraryGamesOutput.parse((await app.call(listTool, { era: 'romantic' })).body).games;
    expect(romantic.length).toBe(lib.entries.filter((e) => e.meta.era === 'romantic').length);
    expect(romantic.length).toBeGreaterThan(0);
    // Romantic means played before 1880.
    for (const g of romantic) expect(Number(g.date.slice(0, 4))).toBeLessThan(1880);
    const wc = ListLibraryGamesOutput.parse((await app.call(listTool, { theme: 'world-championship' })).body).games;
    expect(wc.length).toBeGreaterThan(0);
    for (const g of wc) expect(g.themes).toContain('world-championship');
    const both = ListLibraryGamesOutput.parse((await app.call(listTool, { era: 'modern', theme: 'human-vs-computer' })).body).games;
    expect(both.map((g) => g.slug).sort()).toEqual(
      lib.entries.filter((e) => e.meta.era === 'modern' && e.meta.themes.includes('human-vs-computer')).map((e) => e.meta.slug).sort(),
    );
    expect((await app.call(listTool, { era: 'baroque' })).status).toBe(400);
    expect((await app.call(listTool, { theme: 'Attack' })).status).toBe(400);
  });

  test('returns one game with essay, source, PGN and accuracy null until the pipeline writes it', async () => {
    const first = lib.entries[0];
    const res = await app.call(getTool, { slug: first.meta.slug });
    expect(res.status).toBe(200);
    const body = LibraryGameDetail.parse(res.body);
    expect(body.slug).toBe(first.meta.slug);
    expect(body.pgn).toContain(`[White "${first.meta.white}"]`);
    expect(body.essay.length).toBeGreaterThan(1000);
    expect(body.source).toBe(first.meta.source);
    const hasFile = readdirSync(join(root, first.meta.slug)).includes('accuracy.json');
    if (!hasFile) expect(body.accuracy).toBeNull();
    // No per-ply data anywhere in the answer.
    const text = JSON.stringify(body);
    for (const k of ['"plies"', '"evals"', '"cp"', '"moments"', '"fen"']) expect(text).not.toContain(k);
  });

  test('unknown, malformed and unpublished slugs get byte-identical 404 bodies', async () => {
    const unknown = await app.call(getTool, { slug: 'kasparov-deep-thought-1989' });
    const malformed = await app.call(getTool, { slug: '../../etc/passwd' });
    const upper = await app.call(getTool, { slug: 'Anderssen-Kieseritzky-1851' });
    const long = await app.call(getTool, { slug: `x${'-y'.repeat(200)}` });
    const empty = await app.call(getTool, { slug: '' });
    for (const r of [long, empty]) expect(JSON.stringify(r.body)).toBe(JSON.stringify(unknown.body));
    expect(unknown.status).toBe(404);
    expect(malformed.status).toBe(404);
    expect(upper.status).toBe(404);
    expect(JSON.stringify(malformed.body)).toBe(JSON.stringify(unknown.body));
    expect(JSON.stringify(upper.body)).toBe(JSON.stringify(unknown.body));
    expect(unknown.body).toEqual({ error: LIBRARY_NOT_FOUND });

    // Unpublished: a folder with meta and score but no essay yet is not served.
    const dir = mkdtempSync(join(tmpdir(), 'cfp-lib-'));
    try {
      const src = lib.entries[0];
      mkdirSync(join(dir, 'draft-game-1900'));
      writeFileSync(join(dir, 'draft-game-1900', 'meta.json'), JSON.stringify({ ...src.meta, slug: 'draft-game-1900' }));
      writeFileSync(join(dir, 'draft-game-1900', 'game.pgn'), src.pgn);
      const draftLib = loadLibrary(dir);
      expect(draftLib.entries).toEqual([]);
      let message = '';
      try {
        getLibraryGame('draft-game-1900', draftLib);
      } catch (err) {
        message = (err as Error).message;
        expect((err as { status: number }).status).toBe(404);
      }
      expect(JSON.stringify({ error: message })).toBe(JSON.stringify(unknown.body));
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  test('accuracy.json, when the pipeline has written it, is served with engine and depth only', () => {
    const dir = mkdtempSync(join(tmpdir(), 'cfp-lib-'));
    try {
      const src = lib.entries[0];
      const d = join(dir, src.meta.slug);
      mkdirSync(d);
      writeFileSync(join(d, 'meta.json'), JSON.stringify(src.meta));
      writeFileSync(join(d, 'game.pgn'), src.pgn);
      writeFileSync(join(d, 'essay.md'), src.essay);
      writeFileSync(
        join(d, 'accuracy.json'),
        JSON.stringify({ white: 91.5, black: 62.25, engine: 'Stockfish 17', depth: 20, nodesPerPosition: 1000000, analysedAt: '2026-11-21T00:00:00Z' }),
      );
      const got = getLibraryGame(src.meta.slug, loadLibrary(dir));
      expect(got.accuracy).toEqual({ white: 91.5, black: 62.25, engine: 'Stockfish 17', depth: 20 });
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

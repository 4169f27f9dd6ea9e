import { describe, expect, it } from 'vitest';
import { chesscomGameId, parseChesscomGame } from '../../src/sources/chesscom/parse.js';
import { ECF_TYPES, ecfBudgetExhausted, parseEcfGames, parseEcfRating } from '../../src/sources/ecf/parse.js';
import { parseLichessGame, parseRatingHistory } from '../../src/sources/lichess/parse.js';
import { readLines } from '../../src/sources/lichess/ndjson.js';
import { fixture, fixtureLines } from '../services/sync/sourceFixtures.js';

const march = () => JSON.parse(fixture('chesscom/games_2025_03.json')).games;

describe('chess.com parser', () => {
  it.each([
    ['https://www.chess.com/game/live/131245907731', 'live/131245907731'],
    ['https://www.chess.com/game/daily/771204388', 'daily/771204388'],
    ['https://www.chess.com/daily/game/12345', 'daily/12345'], // old daily links
  ])('game id of %s', (url, id) => expect(chesscomGameId(url)).toBe(id));

  it.each([
    ['win', 'checkmated', 'win'],
    ['timeout', 'win', 'loss'],
    ['agreed', 'agreed', 'draw'],
    ['50move', '50move', 'draw'],
    ['timevsinsufficient', 'timevsinsufficient', 'draw'],
    ['abandoned', 'win', 'loss'],
    ['somethingnew', 'win', 'loss'], // unknown code: a loss when the opponent won
  ])('owner %s vs opponent %s → %s', (own, opp, result) => {
    const g = march()[0];
    g.white.result = own;
    g.black.result = opp;
    const r = parseChesscomGame(g, 'pawnstormpilot', {}, 'x');
    expect('game' in r && r.game.result).toBe(result);
  });

  it('skips variants and games of other players, maps legacy class names', () => {
    const [g] = march();
    expect(parseChesscomGame({ ...g, rules: 'crazyhouse' }, 'PawnStormPilot', {}, 'x')).toEqual({ skip: 'variant', sourceId: 'live/131245907731' });
    expect(parseChesscomGame(g, 'someoneelse', {}, 'x')).toEqual({ skip: 'not-owner', sourceId: 'live/131245907731' });
    const legacy = parseChesscomGame({ ...g, time_class: 'standard' }, 'PawnStormPilot', {}, 'x');
    expect('game' in legacy && legacy.game.timeClass).toBe('rapid');
  });
});

describe('lichess parser', () => {
  it('names AI opponents, and treats a game against no one we know as not ours', () => {
    const g = JSON.parse(fixtureLines('lichess/games_user_export.ndjson')[4]);
    g.players.white = { aiLevel: 5 };
    const r = parseLichessGame(g, 'RookRanger42');
    expect('game' in r && r.game.opponent).toBe('Stockfish level 5');
    expect(parseLichessGame(g, 'nobody')).toEqual({ skip: 'not-owner', sourceId: 'q3Rk7TzA' });
  });

  it('rating history months are 0-based', () => {
    expect(parseRatingHistory([{ name: 'Blitz', points: [[2024, 0, 31, 1500], [2024, 11, 1, 1510]] }, { name: 'Atomic', points: [[2024, 1, 1, 1400]] }])).toEqual([
      { series: 'blitz', date: '2024-01-31', rating: 1500 },
      { series: 'blitz', date: '2024-12-01', rating: 1510 },
    ]);
  });

  it('reads lines across chunk boundaries, including a last line with no newline', async () => {
    const chunks = ['{"a":1}\n{"b"', ':2}\n\n', '{"c":3}'].map((s) => new TextEncoder().encode(s));
    const body = new ReadableStream<Uint8Array>({ start: (c) => (chunks.forEach((x) => c.enqueue(x)), c.close()) });
    const out: string[] = [];
    for await (const l of readLines(body)) out.push(l);
    expect(out).toEqual(['{"a":1}', '{"b":2}', '{"c":3}']);
  });
});

describe('ECF parser', () => {
  it('refuses success=false and unreadable fields', () => {
    expect(() => parseEcfGames({ games: [], success: false }, ECF_TYPES[0], '1', 'u')).toThrow('the ECF answered success=false');
    expect(() => parseEcfGames({ games: [{ game_date: '30/03/2025', colour: 'W', score: 1, opponent_name: 'A' }] }, ECF_TYPES[0], '1', 'u')).toThrow('games[0]: game_date');
  });

  it('notices when the daily processing budget is nearly used (strings, as the fixtures send them)', () => {
    expect(ecfBudgetExhausted(JSON.parse(fixture('ecf/player_code.json')))).toBeNull(); // 1.9373 of 600 s
    expect(ecfBudgetExhausted({ total_processing_time_today: '571', max_processing_time_daily: '600' })).toContain('571 of 600 s'); // ≥ 95 % (570)
    expect(ecfBudgetExhausted({ total_processing_time_today: '569', max_processing_time_daily: '600' })).toBeNull();
  });

  it('prefers the revised rating; 0 or missing is no rating', () => {
    expect(parseEcfRating({ original_rating: 1880, revised_rating: 1889 }, 'x')).toBe(1889);
    expect(parseEcfRating({ original_rating: '1880', revised_rating: '' }, 'x')).toBe(1880);
    expect(parseEcfRating({ original_rating: 0 }, 'x')).toBeNull();
  });
});

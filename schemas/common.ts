import { z } from 'zod';
import type * as C from '../src/chess/types.js';
import { CLASSIFICATIONS, COLOURS } from '../src/chess/types.js';

export { CLASSIFICATIONS, COLOURS };

// Value sets of spec section 2 ("Shared filter values"); unions derive from these arrays.
export const RANGES = ['30d', '90d', '1y', 'all'] as const;
export const SYNCED_PROVIDERS = ['siteA', 'siteB', 'fed'] as const;
export const GAME_PROVIDERS = ['siteA', 'siteB', 'fed', 'manual', 'pgn'] as const;
export const STAT_TIME_CLASSES = ['bullet', 'blitz', 'rapid', 'standard'] as const;
export const RAW_TIME_CLASSES = [
  'ultraBullet',
  'bullet',
  'blitz',
  'rapid',
  'classical',
  'daily',
  'correspondence',
  'standard',
] as const;
export const RESULTS = ['win', 'draw', 'loss'] as const;
export const ACCURACY_SOURCES = ['platform', 'review'] as const;

export const Range = z.enum(RANGES);
export const SyncedProvider = z.enum(SYNCED_PROVIDERS);
export const GameProvider = z.enum(GAME_PROVIDERS);
export const StatTimeClass = z.enum(STAT_TIME_CLASSES);
export const RawTimeClass = z.enum(RAW_TIME_CLASSES);
export const GameResult = z.enum(RESULTS);
export const Colour = z.enum(COLOURS);
export const AccuracySource = z.enum(ACCURACY_SOURCES);
export const Classification = z.enum(CLASSIFICATIONS);

export type Range = z.infer<typeof Range>;
export type SyncedProvider = z.infer<typeof SyncedProvider>;
export type GameProvider = z.infer<typeof GameProvider>;
export type StatTimeClass = z.infer<typeof StatTimeClass>;
export type RawTimeClass = z.infer<typeof RawTimeClass>;
export type GameResult = z.infer<typeof GameResult>;
export type Colour = C.Colour;
export type Classification = C.Classification;

/**
 * An optional comma-separated list of enum values (`siteA,siteB`), as the REST query carries it.
 * The input side is a string (what JSON Schema shows); handlers receive the parsed, de-duplicated array.
 */
export function csvOf<const T extends readonly [string, ...string[]]>(values: T, what: string) {
  const pattern = `^(${values.join('|')})(,(${values.join('|')}))*$`;
  return z
    .string()
    .regex(new RegExp(pattern), { message: `expected comma-separated ${what} from: ${values.join(', ')}` })
    .transform((s) => [...new Set(s.split(','))] as T[number][])
    .optional()
    .describe(`Comma-separated ${what}: ${values.join(', ')}; omit for all`);
}

/**
 * The sites' own names for the providers, accepted wherever a provider is taken (issue 45: the CLI's
 * `connect` took "lichess" while the tools refused it); answers always say siteA, siteB, fed. Keys are
 * lower case: the match ignores case.
 */
const PROVIDER_ALIASES: Readonly<Record<string, GameProvider>> = {
  sitea: 'siteA',
  'chess.com': 'siteA',
  chesscom: 'siteA',
  siteb: 'siteB',
  lichess: 'siteB',
  fed: 'fed',
  ecf: 'fed',
  manual: 'manual',
  pgn: 'pgn',
};

/** The canonical provider among `values` a name stands for (any case, canonical or a site's name); null for none. */
export function providerNamed<T extends GameProvider>(values: readonly T[], raw: string): T | null {
  const p = Object.hasOwn(PROVIDER_ALIASES, raw.trim().toLowerCase()) ? PROVIDER_ALIASES[raw.trim().toLowerCase()] : undefined;
  return p && (values as readonly string[]).includes(p) ? (p as T) : null;
}

/** One provider as an input takes it: canonical or a site's name, any case; the handler gets the canonical one. */
export function providerInput<const T extends readonly [GameProvider, ...GameProvider[]]>(values: T) {
  return z.string().transform((raw, ctx): T[number] => {
    const p = providerNamed<T[number]>(values, raw);
    if (!p) ctx.addIssue({ code: 'custom', message: `unknown provider "${raw}": use ${values.join(', ')} (chess.com, lichess and ecf are accepted too)` });
    return p ?? (z.NEVER as T[number]);
  });
}

/** A comma-separated provider list (`siteA,lichess`), as csvOf but taking the sites' names too; canonical, de-duplicated. */
export function providersCsv<const T extends readonly [GameProvider, ...GameProvider[]]>(values: T) {
  return z
    .string()
    .transform((s, ctx) => {
      const out: T[number][] = [];
      for (const raw of s.split(',')) {
        const p = providerNamed<T[number]>(values, raw);
        if (!p) {
          ctx.addIssue({ code: 'custom', message: `unknown provider "${raw}": use comma-separated ${values.join(', ')} (chess.com, lichess and ecf are accepted too)` });
          return z.NEVER;
        }
        if (!out.includes(p)) out.push(p);
      }
      return out;
    })
    .optional()
    .describe(`Comma-separated providers: ${values.join(', ')} (or chess.com, lichess, ecf); omit for all`);
}

export const IsoDate = z
  .string()
  .regex(/^\d{4}-\d{2}-\d{2}$/, { message: 'expected a date as YYYY-MM-DD' })
  .refine((s) => !Number.isNaN(Date.parse(`${s}T00:00:00Z`)) && new Date(`${s}T00:00:00Z`).toISOString().startsWith(s), {
    message: 'not a calendar date',
  });

export const Timestamp = z.string().describe('ISO 8601 timestamp (UTC)');

export const Id = z.string().min(1).max(100);

/** The one error body of every 4xx/5xx (spec section 7). */
export const ErrorBody = z
  .object({ error: z.string().describe('What went wrong and, where there is one, the next step') })
  .describe('Error body');
export type ErrorBody = z.infer<typeof ErrorBody>;

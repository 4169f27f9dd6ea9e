import { homedir } from 'node:os';
import { join } from 'node:path';
import { z } from 'zod';
import { ENGINE_BUILDS, parseEngineBuild } from './engine/builds.js';
import { DEFAULT_BUCKETS, FAMILIES, type Family } from './limits/buckets.js';

const BucketRule = z.object({ limit: z.number().int().positive(), windowSeconds: z.number().positive() });

export const ConfigSchema = z.object({
  dataDir: z.string().describe('Folder holding the SQLite store'),
  host: z.string().describe('Interface to bind; loopback by default (a personal server)'),
  port: z.number().int().min(0).max(65535),
  publicBaseUrl: z.string().nullable().describe('Base URL used in links (share URLs, discovery); derived from host:port when null'),
  rateLimits: z.union([z.literal('off'), z.record(z.enum(FAMILIES), BucketRule)]),
  allowedHosts: z.array(z.string()).describe('Host header values accepted on /api/mcp (DNS-rebinding protection)'),
  allowedOrigins: z.array(z.string()).describe('Origin header values accepted on /api/mcp'),
  sources: z.object({
    chesscomUrl: z.string(),
    lichessUrl: z.string(),
    ecfUrl: z.string(),
    chessresultsUrl: z.string(),
    userAgent: z.string(),
  }),
  engine: z.object({
    path: z.string().nullable().describe('Native UCI binary; null runs the bundled WASM Stockfish build'),
    build: z.enum(ENGINE_BUILDS).describe('Bundled WASM build when no native binary is set: full (big network) or lite (small network)'),
    threads: z.number().int().positive(),
    hashMb: z.number().int().positive(),
    workers: z.number().int().positive(),
    nodesPerPosition: z.number().int().positive(),
    multiPv: z.number().int().min(1).max(5),
  }),
  syncIntervalMinutes: z.number().positive(),
});
export type Config = z.infer<typeof ConfigSchema>;

function parseRateLimits(raw: string | undefined): Config['rateLimits'] {
  if (raw === 'off') return 'off';
  const rules: Record<Family, z.infer<typeof BucketRule>> = { ...DEFAULT_BUCKETS };
  // CFP_RATE_LIMITS=analysis:30/60,personal:1000/60 overrides single families.
  for (const part of (raw ?? '').split(',').filter(Boolean)) {
    const m = /^(\w+):(\d+)\/(\d+)$/.exec(part.trim());
    if (!m || !(FAMILIES as readonly string[]).includes(m[1])) {
      throw new Error(`CFP_RATE_LIMITS: cannot read "${part}" (expected off, or family:limit/windowSeconds,…)`);
    }
    rules[m[1] as Family] = { limit: Number(m[2]), windowSeconds: Number(m[3]) };
  }
  return rules;
}

export interface ConfigOverrides {
  dataDir?: string;
  host?: string;
  port?: number;
  enginePath?: string;
}

/** Configuration from the environment, with CLI flags taking precedence. */
export function loadConfig(overrides: ConfigOverrides = {}, env: NodeJS.ProcessEnv = process.env): Config {
  const host = overrides.host ?? env.HOST ?? '127.0.0.1';
  const port = overrides.port ?? (env.PORT ? Number(env.PORT) : 3000);
  const extraHosts = (env.CFP_ALLOWED_HOSTS ?? '').split(',').filter(Boolean);
  const extraOrigins = (env.CFP_ALLOWED_ORIGINS ?? '').split(',').filter(Boolean);
  return ConfigSchema.parse({
    dataDir: overrides.dataDir ?? env.CFP_DATA_DIR ?? join(homedir(), '.chess-footprint'),
    host,
    port,
    publicBaseUrl: env.CFP_PUBLIC_URL ?? null,
    rateLimits: parseRateLimits(env.CFP_RATE_LIMITS),
    allowedHosts: ['127.0.0.1', 'localhost', '[::1]', ...extraHosts],
    allowedOrigins: extraOrigins,
    sources: {
      chesscomUrl: env.CFP_CHESSCOM_URL ?? 'https://api.chess.com',
      lichessUrl: env.CFP_LICHESS_URL ?? 'https://lichess.org',
      ecfUrl: env.CFP_ECF_URL ?? 'https://rating.englishchess.org.uk',
      chessresultsUrl: env.CFP_CHESSRESULTS_URL ?? 'https://chess-results.com',
      userAgent: env.CFP_USER_AGENT ?? 'chess-footprint/0.1 (self-hosted; set CFP_USER_AGENT to add your contact)',
    },
    engine: {
      path: overrides.enginePath ?? env.CFP_STOCKFISH ?? null,
      build: parseEngineBuild(env.CFP_ENGINE_BUILD),
      threads: Number(env.CFP_ENGINE_THREADS ?? 1),
      hashMb: Number(env.CFP_ENGINE_HASH_MB ?? 32),
      workers: Number(env.CFP_ENGINE_WORKERS ?? 2),
      nodesPerPosition: Number(env.CFP_ENGINE_NODES ?? 150_000),
      multiPv: Number(env.CFP_ENGINE_MULTIPV ?? 2),
    },
    syncIntervalMinutes: Number(env.CFP_SYNC_INTERVAL_MINUTES ?? 360),
  });
}

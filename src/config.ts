import { homedir, availableParallelism } from 'node:os';
import { join, resolve } from 'node:path';
import { z } from 'zod';
import { DEFAULT_ENGINE_BUILD, ENGINE_BUILDS } from './engine/builds.js';
import { DEFAULT_DEEP_NODES } from './engine/pool.js';
import { DEFAULT_BUCKETS, FAMILIES, type Family } from './limits/buckets.js';

/**
 * Every setting is one entry of ConfigSchema. A setting read from the environment carries its variable
 * in `.meta({ env })`: loadConfig walks the schema, reads each variable (numbers strictly: "", "12abc" and
 * "1e400" are errors, not 0, 12 or Infinity) and validates the whole config once, at start, naming the
 * variable of every value it refuses. To add a setting, add one entry here (with its env and default).
 */
type EnvMeta = { env: string; description?: string };
const fromEnv = <T extends z.ZodType>(schema: T, env: string, description?: string) => schema.meta({ env, ...(description ? { description } : {}) });

const int = (min: number, max: number) => z.number().int().min(min).max(max);

// Rate-limit rules: a window of at most a day, at most a million calls in it.
const BucketRule = z.object({ limit: int(1, 1_000_000), windowSeconds: int(1, 86_400) });

/** The largest delay a Node timer takes (2^31−1 ms, about 24.8 days); longer waits are scheduled in steps. */
export const MAX_TIMER_MS = 2 ** 31 - 1;

export const ConfigSchema = z.object({
  dataDir: z.string().describe('Folder holding the SQLite store'),
  host: z.string().describe('Interface to bind; loopback by default (a personal server)'),
  port: fromEnv(int(0, 65535).default(3000), 'PORT', 'TCP port of the REST and MCP server (0: any free port)'),
  publicBaseUrl: z.string().nullable().describe('Base URL used in links (share URLs, discovery); derived from host:port when null'),
  rateLimits: fromEnv(z.union([z.literal('off'), z.record(z.enum(FAMILIES), BucketRule)]), 'CFP_RATE_LIMITS'),
  allowedHosts: z.array(z.string()).describe('Host header values accepted on /api/mcp (DNS-rebinding protection)'),
  allowedOrigins: z.array(z.string()).describe('Origin header values accepted on /api/mcp'),
  sources: z.object({
    chesscomUrl: fromEnv(z.string().default('https://api.chess.com'), 'CFP_CHESSCOM_URL'),
    lichessUrl: fromEnv(z.string().default('https://lichess.org'), 'CFP_LICHESS_URL'),
    lichessExplorerUrl: fromEnv(z.string().default('https://explorer.lichess.org'), 'CFP_LICHESS_EXPLORER_URL', "lichess's opening explorer (the peers at your level, issue 40)"),
    ecfUrl: fromEnv(z.string().default('https://rating.englishchess.org.uk'), 'CFP_ECF_URL'),
    chessresultsUrl: fromEnv(z.string().default('https://chess-results.com'), 'CFP_CHESSRESULTS_URL'),
    userAgent: fromEnv(z.string().default('chess-footprint/0.1 (self-hosted; set CFP_USER_AGENT to add your contact)'), 'CFP_USER_AGENT'),
    connectTimeoutMs: fromEnv(int(100, 120_000).default(15_000), 'CFP_SOURCE_CONNECT_TIMEOUT_MS', 'Longest wait for a source to answer a request (headers)'),
    idleTimeoutMs: fromEnv(int(1_000, 600_000).default(60_000), 'CFP_SOURCE_IDLE_TIMEOUT_MS', 'Longest silence inside a response body before the request counts as stalled'),
    maxRetries: fromEnv(int(0, 10).default(4), 'CFP_SOURCE_MAX_RETRIES', 'Repeats of one refused (429) or stalled request before that source stops for this sync'),
    maxRetryAfterSeconds: fromEnv(int(1, 86_400).default(900), 'CFP_SOURCE_MAX_RETRY_AFTER_SECONDS', 'Longest Retry-After honoured; a source asking for more stops for this sync'),
  }),
  engine: z.object({
    path: fromEnv(z.string().nullable().default(null), 'CFP_STOCKFISH', 'Native UCI binary; null runs the bundled WASM Stockfish build'),
    // The default was chosen by `npm run bench engine` (README, engine section); a native binary wins over it.
    build: fromEnv(
      z.enum(ENGINE_BUILDS).default(DEFAULT_ENGINE_BUILD),
      'CFP_ENGINE_BUILD',
      'Bundled WASM build when no native binary is set: full (the standard network) or lite (a small one)',
    ),
    // Stockfish's own option bounds (Threads 1..1024, Hash 1..33554432 MB); the spec's MultiPV 1..5.
    threads: fromEnv(int(1, 1024).default(1), 'CFP_ENGINE_THREADS'),
    hashMb: fromEnv(int(1, 33_554_432).default(32), 'CFP_ENGINE_HASH_MB'),
    // One engine process per core by default: whole games each when several wait, one game split when alone.
    // 0: no local engine; reviews wait for review workers (issue 36, `serve --engines 0`).
    workers: fromEnv(int(0, 64).default(Math.min(64, availableParallelism())), 'CFP_ENGINE_WORKERS'),
    // Chosen with the default build by `npm run bench engine` (README, Engine review).
    nodesPerPosition: fromEnv(int(1_000, 1_000_000_000).default(30_000), 'CFP_ENGINE_NODES'),
    multiPv: fromEnv(int(1, 5).default(2), 'CFP_ENGINE_MULTIPV'),
    // The deeper look (issue 25 item 2): chosen with nodesPerPosition by `npm run bench -- fidelity` (README).
    deepNodes: fromEnv(
      int(0, 1_000_000_000).default(DEFAULT_DEEP_NODES),
      'CFP_ENGINE_DEEP_NODES',
      'Nodes for the deeper look at the positions the first pass cannot settle (0: no deeper look, and no `great`)',
    ),
  }),
  // Review workers on lichess's fishnet protocol (issue 36; services/workers).
  reviewWorkers: z.object({
    // lichess's own budget for a user-requested analysis (lila modules/fishnet Work.scala).
    nodes: fromEnv(int(1_000, 1_000_000_000).default(1_000_000), 'CFP_WORKER_NODES', 'Nodes per position a review worker is asked to search'),
    timeoutMs: fromEnv(int(1_000, 600_000).default(20_000), 'CFP_WORKER_TIMEOUT_MS', 'Milliseconds a worker is allowed per position; a job is leased for this × its positions'),
    localWaitSeconds: fromEnv(
      int(0, 86_400).default(60),
      'CFP_WORKER_WAIT_SECONDS',
      'While a review worker is connected, how long a new job waits for one before the local engines take it',
    ),
  }),
  // Opt-in: games per owner per UTC day that `serve` reviews by itself (services/review/auto.ts).
  autoReviewPerDay: fromEnv(int(0, 1_000).default(0), 'CFP_AUTO_REVIEW', 'Games per owner per UTC day that serve reviews in the background, newest first (0: off)'),
  // At least a minute (sources ask for courtesy), at most a year; scheduled without the 2^31−1 ms timer limit.
  syncIntervalMinutes: fromEnv(int(1, 525_600).default(360), 'CFP_SYNC_INTERVAL_MINUTES'),
  reportCheckMinutes: fromEnv(int(1, 1_440).default(15), 'CFP_REPORT_CHECK_MINUTES', 'How often the weekly-report scheduler looks for due reports'),
  smtp: z.object({
    host: fromEnv(z.string().nullable().default(null), 'CFP_SMTP_HOST', 'SMTP server; null: reports are not emailed'),
    port: fromEnv(int(1, 65535).nullable().default(null), 'CFP_SMTP_PORT', 'Default 587, or 465 with CFP_SMTP_TLS=implicit'),
    from: fromEnv(z.string().nullable().default(null), 'CFP_SMTP_FROM'),
    user: fromEnv(z.string().nullable().default(null), 'CFP_SMTP_USER'),
    pass: fromEnv(z.string().nullable().default(null), 'CFP_SMTP_PASS'),
    tls: fromEnv(z.enum(['starttls', 'implicit', 'none']).default('starttls'), 'CFP_SMTP_TLS', 'starttls (required), implicit (port 465), none (only when set explicitly)'),
  }),
});
export type Config = z.infer<typeof ConfigSchema>;

/** A setting the environment gives that the schema refuses: the message names every variable at fault. */
export class ConfigError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'ConfigError';
  }
}

const metaOf = (s: z.ZodType): EnvMeta | undefined => z.globalRegistry.get(s) as EnvMeta | undefined;

/** The type under defaults and nullables: "number", "string", "enum", … */
function leafType(s: z.ZodType): string {
  let t = s as z.ZodType & { _zod: { def: { type: string; innerType?: z.ZodType } } };
  while (t._zod.def.innerType) t = t._zod.def.innerType as typeof t;
  return t._zod.def.type;
}

/** A decimal number, or the text unchanged (the schema then says "expected number"). */
function strictNumber(text: string): number | string {
  const t = text.trim();
  if (!/^[+-]?(\d+(\.\d*)?|\.\d+)([eE][+-]?\d+)?$/.test(t)) return text;
  const n = Number(t);
  return Number.isFinite(n) ? n : text;
}

function parseRateLimits(raw: string): unknown {
  if (raw === 'off') return 'off';
  const rules: Record<Family, { limit: number | string; windowSeconds: number | string }> = { ...DEFAULT_BUCKETS };
  // CFP_RATE_LIMITS=analysis:30/60,personal:1000/60 overrides single families.
  for (const part of raw.split(',').filter(Boolean)) {
    const m = /^(\w+):([^/]+)\/(.+)$/.exec(part.trim());
    if (!m || !(FAMILIES as readonly string[]).includes(m[1])) {
      throw new ConfigError(`CFP_RATE_LIMITS: cannot read "${part}" (expected off, or family:limit/windowSeconds,…; families: ${FAMILIES.join(', ')})`);
    }
    rules[m[1] as Family] = { limit: strictNumber(m[2]), windowSeconds: strictNumber(m[3]) };
  }
  return rules;
}

/** Settings whose text is not a plain number or string. */
const READERS: Record<string, (text: string) => unknown> = { CFP_RATE_LIMITS: parseRateLimits };

/** The raw object for `schema` from the environment: only variables that are set (defaults fill the rest). */
function readEnv(schema: z.ZodObject, env: NodeJS.ProcessEnv): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [key, field] of Object.entries(schema.shape) as Array<[string, z.ZodType]>) {
    const meta = metaOf(field);
    if (meta) {
      const text = env[meta.env];
      if (text === undefined || text === '') continue;
      const read = READERS[meta.env];
      out[key] = read ? read(text) : leafType(field) === 'number' ? strictNumber(text) : text;
    } else if (field instanceof z.ZodObject) {
      out[key] = readEnv(field, env);
    }
  }
  return out;
}

/** The environment variable behind a config path, for error messages. */
function envAt(path: PropertyKey[]): string | null {
  let s: z.ZodType = ConfigSchema;
  for (const key of path) {
    const meta = metaOf(s);
    if (meta) return meta.env;
    if (!(s instanceof z.ZodObject)) return null;
    const next = (s.shape as Record<string, z.ZodType>)[String(key)];
    if (!next) return null;
    s = next;
  }
  return metaOf(s)?.env ?? null;
}

function plainMessage(issue: z.core.$ZodIssue): string {
  if (issue.code === 'invalid_type' && issue.expected === 'int') return 'expected a whole number';
  if (issue.code === 'invalid_type' && issue.expected === 'number') return 'expected a number';
  if (issue.code === 'too_small') return `too small: expected at least ${String(issue.minimum)}`;
  if (issue.code === 'too_big') return `too big: expected at most ${String(issue.maximum)}`;
  return issue.message;
}

export interface ConfigOverrides {
  dataDir?: string;
  host?: string;
  port?: number;
  enginePath?: string;
  /** `serve --engines N`: local engine processes (0: none; reviews wait for review workers). */
  engineWorkers?: number;
}

/** Configuration from the environment, with CLI flags taking precedence. Throws ConfigError naming each bad setting. */
export function loadConfig(overrides: ConfigOverrides = {}, env: NodeJS.ProcessEnv = process.env): Config {
  const raw = readEnv(ConfigSchema, env) as Record<string, Record<string, unknown> & object>;
  const extraHosts = (env.CFP_ALLOWED_HOSTS ?? '').split(',').filter(Boolean);
  const extraOrigins = (env.CFP_ALLOWED_ORIGINS ?? '').split(',').filter(Boolean);
  const input = {
    ...raw,
    // Absolute, so every message and the Claude Desktop configuration name the same folder from any directory.
    // An empty CFP_DATA_DIR is unset (resolve('') would be the current folder: a store in a checkout).
    dataDir: resolve(overrides.dataDir ?? (env.CFP_DATA_DIR || undefined) ?? join(homedir(), '.chess-footprint')),
    host: overrides.host ?? env.HOST ?? '127.0.0.1',
    ...(overrides.port !== undefined ? { port: overrides.port } : {}),
    publicBaseUrl: env.CFP_PUBLIC_URL ?? null,
    rateLimits: raw.rateLimits ?? { ...DEFAULT_BUCKETS },
    allowedHosts: ['127.0.0.1', 'localhost', '[::1]', ...extraHosts],
    allowedOrigins: extraOrigins,
    engine: {
      ...raw.engine,
      ...(overrides.enginePath !== undefined ? { path: overrides.enginePath } : {}),
      ...(overrides.engineWorkers !== undefined ? { workers: overrides.engineWorkers } : {}),
    },
  };
  const r = ConfigSchema.safeParse(input);
  if (r.success) return r.data;
  const lines = r.error.issues.map((issue) => {
    const name = envAt(issue.path);
    const where = issue.path.map(String).join('.');
    const given = name && !/PASS/.test(name) && env[name] !== undefined ? `=${JSON.stringify(env[name])}` : '';
    return name ? `${name}${given} (${where}): ${plainMessage(issue)}` : `${where}: ${plainMessage(issue)}`;
  });
  throw new ConfigError(`invalid configuration:\n  ${lines.join('\n  ')}`);
}

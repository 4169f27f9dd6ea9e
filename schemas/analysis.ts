import { z } from 'zod';

export const SIDES = ['both', 'user'] as const;
export const SEVERITIES = ['moderate', 'major', 'critical'] as const;

export const AnalysisInput = z.object({
  id: z.string().min(1).max(100).describe('Game id from list_games'),
  fromPly: z.number().int().default(1).describe('First ply to return (1-based; default 1); out-of-range values degrade to 1'),
  limit: z.number().int().default(40).describe('Plies to return, 1 to 120 (default 40); values outside are clamped'),
  side: z.enum(SIDES).default('both').describe("both (default) or user: only the owner's moves"),
});

export const CriticalMomentsInput = z.object({
  id: z.string().min(1).max(100).describe('Game id from list_games'),
  side: z.enum(SIDES).default('both').describe("both (default) or user: only the owner's moves"),
  minSeverity: z.enum(SEVERITIES).optional().describe('Drop moments below this severity (moderate, major, critical); brilliancies are exempt'),
  minCentipawnLoss: z.number().int().min(1).optional().describe('Also surface any ply conceding at least this many centipawns (source: derived)'),
  maxMoments: z.number().int().min(1).max(40).default(40).describe('At most this many moments (1 to 40, default 40): the most severe, returned in ply order'),
});

export const WeaknessInput = z.object({
  range: z.enum(['30d', '90d', '1y', 'all']).default('1y').describe('Window: 30d, 90d, 1y (default) or all'),
});

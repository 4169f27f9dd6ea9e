/**
 * Rate-limit families (spec section 8). Every tool names one; the defaults are the spec's values.
 * `personal` is also spent by every personal call on top of its own family.
 */
export const FAMILIES = [
  'personal',
  'analysis',
  'attach',
  'review',
  'studyUpload',
  'weakness',
  'coachingWrite',
  'tournament',
  'calculator',
  'library',
  'scout',
] as const;
export type Family = (typeof FAMILIES)[number];

export interface BucketRule {
  limit: number;
  windowSeconds: number;
}

/** The limiter's rules: every family's bucket, or 'off'. Read from the environment by src/config.ts (CFP_RATE_LIMITS). */
export type RateLimits = 'off' | Record<Family, BucketRule>;

export const DEFAULT_BUCKETS: Record<Family, BucketRule> = {
  personal: { limit: 120, windowSeconds: 60 },
  analysis: { limit: 30, windowSeconds: 60 },
  attach: { limit: 20, windowSeconds: 3600 },
  // Spent by the review service only when a review is newly queued: an already-reviewed game is free.
  review: { limit: 20, windowSeconds: 3600 },
  // Spent by the study service only when an upload changes something: a refused or exact-duplicate upload is free.
  studyUpload: { limit: 20, windowSeconds: 3600 },
  weakness: { limit: 10, windowSeconds: 60 },
  coachingWrite: { limit: 60, windowSeconds: 3600 },
  tournament: { limit: 60, windowSeconds: 60 },
  calculator: { limit: 60, windowSeconds: 60 },
  library: { limit: 60, windowSeconds: 60 },
  // Issue 29: each scout of a public player fetches from lichess or chess.com on the owner's behalf;
  // spent by the prep service only when a fetch starts (reading what is stored is free).
  scout: { limit: 10, windowSeconds: 3600 },
};

/** Families the surface charges before the handler runs; `review` and `studyUpload` are charged inside the service. */
export function chargedBySurface(family: Family): boolean {
  return family !== 'review' && family !== 'studyUpload' && family !== 'personal' && family !== 'scout';
}

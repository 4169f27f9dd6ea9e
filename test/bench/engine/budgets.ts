/**
 * The node budgets the engine bench compares, for both bundled builds. 150,000 was the default before
 * the measurement, and about the most the full build searches in an 80-ply game within 30 s on two
 * cores. The reference searches each at REFERENCE_FACTOR times the budget (native Stockfish).
 */
export const BUDGETS = [50_000, 100_000, 150_000] as const;
export const REFERENCE_FACTOR = 10;
/** The review's own MultiPV (config default), used by budget and reference alike: "great" needs the second line. */
export const BENCH_MULTIPV = 2;
export const REFERENCE_HASH_MB = 64;

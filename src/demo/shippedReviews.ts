import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { gunzipSync } from 'node:zlib';
import { z } from 'zod';
import { StoredAnalysis as StoredAnalysisSchema } from '../../schemas/engine.js';
import type { StoredAnalysis } from '../chess/engineOutput.js';
import { movesKey } from '../chess/pgn.js';
import { dataDir } from '../paths.js';

/**
 * The demo's reviews shipped as stored engine output (`data/demo/reviews.json.gz`), written by
 * `npm run demo:reviews` (test/golden/demoReviews.ts): the engine's own output for the demo games `seedReviews`
 * picks, each recording its engine, build, network and budget, so the first start shows reviewed games at once
 * and a test reproduces them from those settings (test/demo/shippedReviews.test.ts). Nothing here is computed.
 */
export const SHIPPED_REVIEWS_FILE = join(dataDir, 'demo', 'reviews.json.gz');

const Shipped = z.object({
  /** How the file was made: the command, seed and game count the candidates came from. */
  made: z.object({ command: z.string(), seed: z.number().int(), games: z.number().int(), engines: z.literal(1) }),
  reviews: z.array(StoredAnalysisSchema),
});
export type ShippedReviews = z.infer<typeof Shipped>;

export function encodeShipped(s: ShippedReviews): Buffer {
  return Buffer.from(JSON.stringify(s));
}

/** The shipped reviews by moves key; empty when the file is absent (a checkout that has not made it). */
export function shippedReviews(file = SHIPPED_REVIEWS_FILE): Map<string, StoredAnalysis> {
  const out = new Map<string, StoredAnalysis>();
  if (!existsSync(file)) return out;
  const parsed = Shipped.parse(JSON.parse(gunzipSync(readFileSync(file)).toString('utf8')));
  for (const r of parsed.reviews) out.set(movesKey(r.startFen, r.movesUci), r);
  return out;
}

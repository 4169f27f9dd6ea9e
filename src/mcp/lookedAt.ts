import { verifyToken } from '../auth/tokens.js';
import { tournamentsLookedAt } from '../services/tournaments/index.js';
import type { McpSession } from './owner.js';

/** The tools whose `tnr` is a tournament the owner looked at (completion offers it for prepare_next_round). */
const TOURNAMENT_TOOLS = new Set(['get_tournament_state', 'estimate_pairings', 'estimate_round1']);

/**
 * Remembers a tournament an owner looked at through a tool that answered. The tournament tools need no token,
 * so the call is the owner's only when it came with theirs; without one nothing is remembered.
 */
export function noteTournament(session: McpSession, toolName: string, args: Record<string, unknown> | undefined): void {
  const tnr = args?.tnr;
  if (!TOURNAMENT_TOOLS.has(toolName) || (typeof tnr !== 'string' && typeof tnr !== 'number')) return;
  const user = verifyToken(session.deps.store, session.token);
  if (user) tournamentsLookedAt(session.deps).add(user.id, String(tnr));
}

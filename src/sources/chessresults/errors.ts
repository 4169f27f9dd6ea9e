import { ApiError } from '../../errors.js';

/**
 * The three fixed tournament errors of spec section 7, with the statuses this project chose for them
 * (the spec leaves them open):
 * - 502 Bad Gateway: the upstream page could not be read (fetch failed or the layout changed). The
 *   message starts with a fixed sentence, then names the view and the check that failed.
 * - 503 Service Unavailable + Retry-After: our own outbound courtesy cap to chess-results.com is full.
 *   Retryable; distinct from 429, which is the caller's own rate limit.
 * - 409 Conflict: no legal pairing exists for the round asked about (all rounds played, too few players,
 *   every pairing a rematch): the tournament's state conflicts with the request.
 */
export const TournamentMessages = {
  sourceUnreadable: 'the tournament source could not be read (page layout changed or fetch failed)',
  courtesyCap: 'the global outbound courtesy cap to the tournament source was reached',
  noLegalPairing: 'no legal pairing was found for the requested round',
} as const;

export const SOURCE_UNREADABLE_STATUS = 502;
export const COURTESY_CAP_STATUS = 503;
export const NO_LEGAL_PAIRING_STATUS = 409;

/** Thrown by the parsers and the client; never caught to return partial data. */
export class SourceUnreadable extends ApiError {
  constructor(readonly detail: string) {
    super(SOURCE_UNREADABLE_STATUS, `${TournamentMessages.sourceUnreadable}: ${detail}`);
    this.name = 'SourceUnreadable';
  }
}

export class CourtesyCapReached extends ApiError {
  constructor(retryAfterSeconds: number) {
    const s = Math.max(1, Math.ceil(retryAfterSeconds));
    super(COURTESY_CAP_STATUS, `${TournamentMessages.courtesyCap}; retry after ${s} s`, { 'Retry-After': String(s) });
    this.name = 'CourtesyCapReached';
  }
}

export function noLegalPairing(reason: string): ApiError {
  return new ApiError(NO_LEGAL_PAIRING_STATUS, `${TournamentMessages.noLegalPairing}: ${reason}`);
}

/** The door of src/services/peers/ (issue 40): the owner's opening tree beside lichess's opening explorer at their level — which positions (positions.ts), the band and speeds (level.ts), the cached answers (answers.ts, table explorer_answers), the fetch (runs.ts), the findings (findings.ts, pure) and the views (view.ts). */
export { comparePosition, findingsOf, peerFigures, OWNER_MIN_GAMES, PEER_MIN_GAMES, RARE_SHARE, SCORE_GAP } from './findings.js';
export { lichessFromChesscom, ratingGroup, TIME_CLASS_SPEEDS } from './level.js';
export { ownerPositions, PEER_MAX_POSITIONS, PEER_MIN_OWNER_GAMES, PEER_PLIES, type OwnerPosition } from './positions.js';
export { PeerRuns, peerRuns, setPeerRuns, TOKEN_REFUSED } from './runs.js';
export { findingSentence, NO_TOKEN, PEERS_RULES, peersInsight, peersStamp, peersView, type PeersOptions } from './view.js';
// The rating groups a caller may name (band=), for completion.
export { EXPLORER_RATINGS } from '../../sources/lichess/explorer.js';

import type { z } from 'zod';
import type { PeersFinding, PeersPosition } from '../../../schemas/peers.js';
import type { Colour } from '../../chess/types.js';
import type { ExplorerAnswer } from '../../sources/lichess/explorer.js';
import { round1, scorePercent } from '../common/index.js';
import type { OwnerPosition } from './positions.js';

type Position = z.infer<typeof PeersPosition>;
type Finding = z.infer<typeof PeersFinding>;
type PeerFigure = NonNullable<Position['mostPlayed']>;

/**
 * Thresholds of the findings (issue 40), pure functions over the owner's positions and the explorer's answers.
 * - A peers' score is shown, and a move can be "best-scoring", from PEER_MIN_GAMES games: at 100 games the
 *   standard error of a score near 50% is 5 points (√(0.25/100)), under that it is noise.
 * - scoresWorse: the peers' best-scoring other move scores SCORE_GAP points or more above the owner's move
 *   (both with PEER_MIN_GAMES games): a gap the size of that standard error, on lichess's millions of games
 *   usually far more certain.
 * - rare: the peers choose the owner's move in under RARE_SHARE percent of their games there (positions with
 *   PEER_MIN_GAMES peers' games or more; a move the explorer does not list counts as 0%).
 * - A move is judged only when the owner played it in OWNER_MIN_GAMES games or more: one game is a visit, not a choice.
 */
export const PEER_MIN_GAMES = 100;
export const SCORE_GAP = 5;
export const RARE_SHARE = 2;
export const OWNER_MIN_GAMES = 3;

/** Total games of an answer (or one move of it). */
const gamesOf = (x: { white: number; draws: number; black: number }) => x.white + x.draws + x.black;

/** Each move of the answer as the side to move scores with it. */
export function peerFigures(answer: ExplorerAnswer, colour: Colour): Array<PeerFigure & { uci: string }> {
  const total = gamesOf(answer);
  return answer.moves.map((m) => {
    const games = gamesOf(m);
    const wins = colour === 'white' ? m.white : m.black;
    return {
      san: m.san,
      uci: m.uci,
      games,
      share: total ? round1((100 * games) / total) : 0,
      score: games >= PEER_MIN_GAMES ? scorePercent(wins, m.draws, games) : null,
    };
  });
}

const plain = ({ san, games, share, score }: PeerFigure): PeerFigure => ({ san, games, share, score });

/** The best-scoring move with a score (enough games), skipping `except`; ties go to the more played. */
function bestScoring(figures: ReadonlyArray<PeerFigure & { uci: string }>, except?: string): PeerFigure | null {
  let best: (PeerFigure & { uci: string }) | null = null;
  for (const f of figures) {
    if (f.score === null || f.uci === except) continue;
    if (!best || f.score > best.score! || (f.score === best.score && f.games > best.games)) best = f;
  }
  return best ? plain(best) : null;
}

/** The most played move (ties: the explorer's order). */
function mostPlayed(figures: ReadonlyArray<PeerFigure>): PeerFigure | null {
  let top: PeerFigure | null = null;
  for (const f of figures) if (!top || f.games > top.games) top = f;
  return top ? plain(top) : null;
}

/** One of the owner's positions beside the peers' answer there (and the masters', when asked). */
export function comparePosition(pos: OwnerPosition, colour: Colour, peers: ExplorerAnswer, masters?: ExplorerAnswer | null): Position {
  const figures = peerFigures(peers, colour);
  const byUci = new Map(figures.map((f) => [f.uci, f]));
  const out: Position = {
    lineMoves: pos.line,
    games: pos.games,
    peerGames: gamesOf(peers),
    mostPlayed: mostPlayed(figures),
    bestScoring: bestScoring(figures),
    moves: pos.moves.map((m) => {
      const f = byUci.get(m.uci);
      return {
        san: m.san,
        lineMoves: pos.line ? `${pos.line} ${m.san}` : m.san,
        games: m.games,
        score: scorePercent(m.win, m.draw, m.games)!,
        peers: f ? plain(f) : null,
      };
    }),
  };
  if (masters !== undefined) out.masters = masters ? mostPlayed(peerFigures(masters, colour)) : null;
  return out;
}

/**
 * The moves worth a second look, over compared positions:
 * scoresWorse (by pointsAtStake = games × gap / 100, the points the owner's games would have gained at the
 * peers' rates) first, then those only rare (most games first). One finding per move and position.
 */
export function findingsOf(
  compared: ReadonlyArray<{ position: Position; owner: OwnerPosition; peers: ExplorerAnswer; colour: Colour }>,
): Finding[] {
  const out: Finding[] = [];
  for (const { position, owner, peers, colour } of compared) {
    const figures = peerFigures(peers, colour);
    for (const [i, m] of position.moves.entries()) {
      if (m.games < OWNER_MIN_GAMES) continue;
      const uci = owner.moves[i].uci;
      const alternative = bestScoring(figures, uci);
      const reasons: Finding['reasons'] = [];
      let pointsAtStake: number | null = null;
      if (m.peers?.score != null && alternative?.score != null && alternative.score - m.peers.score >= SCORE_GAP) {
        reasons.push('scoresWorse');
        pointsAtStake = round1((m.games * (alternative.score - m.peers.score)) / 100);
      }
      if (position.peerGames >= PEER_MIN_GAMES && (!m.peers || m.peers.share < RARE_SHARE)) reasons.push('rare');
      if (!reasons.length) continue;
      const f: Finding = { lineMoves: position.lineMoves, san: m.san, reasons, games: m.games, score: m.score, peers: m.peers, alternative, pointsAtStake };
      if (position.masters !== undefined) f.masters = position.masters;
      out.push(f);
    }
  }
  return out.sort(
    (a, b) =>
      (b.pointsAtStake ?? -1) - (a.pointsAtStake ?? -1) || b.games - a.games || a.lineMoves.localeCompare(b.lineMoves) || a.san.localeCompare(b.san),
  );
}

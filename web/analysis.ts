import { evalGraph } from './charts.js';
import { evalText, whiteFrame, whiteWinChances } from './format.js';

// A review's per-ply figures as the game page and a study game's page both show them: the evaluation
// graph and the words under the board. The plies are the server's (get_game_analysis, the study view),
// each evaluation in the side-to-move frame (after White's move, Black's).

export interface AnalysedPly {
  ply: number;
  colour: string;
  classification: string;
  evalAfter: { type: string; value: number } | null;
}

const sign = (p: AnalysedPly): 1 | -1 => (p.colour === 'white' ? -1 : 1);

/** The evaluation graph of the reviewed plies (null when there are none); a click goes to its ply. */
export function plyGraph(plies: readonly AnalysedPly[], onPick: (ply: number) => void, width: number) {
  return plies.length ? evalGraph(plies.map((p) => ({ ply: p.ply, whiteChances: whiteWinChances(p.evalAfter, sign(p)), cls: p.classification })), onPick, width) : null;
}

/** The evaluation after a reviewed ply from White's view, as text: "−1.20", "#3", "—" when none is stored. */
export const plyEvalText = (p: AnalysedPly) => evalText(whiteFrame(p.evalAfter, sign(p)));

/** The verdict on a reviewed ply, under the board: " · mistake · −1.20 (White’s view)". */
export const plyVerdict = (p: AnalysedPly) => ` · ${p.classification} · ${plyEvalText(p)} (White’s view)`;

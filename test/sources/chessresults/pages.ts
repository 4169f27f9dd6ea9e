import { readFileSync } from 'node:fs';
import { fixturePath } from '../../helpers/fixtures.js';

/** The real saved chess-results pages (one snapshot of tnr 1473782 during round 2, its `not paired` list too; see their SOURCES.md). */
const DIR = fixturePath('sources/chessresults');
export const JEDDAH_TNR = '1473782';
export const page = (name: 'startingrank' | 'crosstable' | 'r1' | 'r2_live' | 'r3_unpaired' | 'notpaired_midevent'): string =>
  readFileSync(`${DIR}/jeddah2026_${name}.html`, 'utf-8');
/** The 2026 British Championship's round 8 page asked for at round 7: only its five `not paired` rows. */
export const britishUnpairedRound8 = (): string => readFileSync(`${DIR}/british2026_champ_r8_unpaired_only.html`, 'utf-8');
/** The starting rank page with six names written in named and numeric entities (fixtures SOURCES.md). */
export const entitiesPage = (): string => readFileSync(`${DIR}/entities_startingrank.html`, 'utf-8');
/** The two finished events whose `not paired` list (art=40) and crosstable (art=5) are saved (SOURCES.md). */
export const finishedEvent = (event: 'british2026_champ' | 'frome2026_open') => ({
  notPaired: readFileSync(`${DIR}/${event}_notpaired${event === 'british2026_champ' ? '_final' : ''}.html`, 'utf-8'),
  crosstable: readFileSync(`${DIR}/${event}_crosstable${event === 'british2026_champ' ? '_final' : ''}.html`, 'utf-8'),
});

/**
 * One share of the large reference set, run in its own process so a test can spread the set over the cores:
 * `tsx test/bench/pairingShard.ts <index> <count>` pairs every count-th case and what-if table from index and
 * prints the outcomes as one JSON line.
 */
import { largeCases, largeWhatIf, runCase, runWhatIf } from './pairing.js';

const [index, count] = process.argv.slice(2).map(Number);
const mine = <T>(xs: T[]) => xs.filter((_, i) => i % count === index);
const cases = mine(largeCases()).map(runCase);
const whatIf = runWhatIf(mine(largeWhatIf()));
process.stdout.write(`${JSON.stringify({ cases, whatIf })}\n`);

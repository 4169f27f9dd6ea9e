import type { Command } from 'commander';
import { seedDemo } from '../demo/index.js';
import { fail, withApp } from './common.js';

export function registerDemoCommand(program: Command): void {
  program
    .command('demo')
    .description('create a new demo owner with realistic demo data; prints its token as the last line of stdout')
    .option('--data-dir <dir>', 'data folder (default $CFP_DATA_DIR or ~/.chess-footprint)')
    .option('--games <n>', 'number of games', '500')
    .option('--seed <s>', 'random seed (same seed, same data)', '1')
    .action(async (opts: { dataDir?: string; games: string; seed: string }) => {
      const games = Number(opts.games);
      const seed = Number(opts.seed);
      if (!Number.isInteger(games) || games < 1 || games > 1_000_000) fail('--games takes a whole number from 1 to 1,000,000');
      if (!Number.isInteger(seed)) fail('--seed takes a whole number');
      await withApp(opts, async (deps) => {
        const { user, token } = await seedDemo(deps, { games, seed });
        console.error(`demo owner ${user.email} created`);
        console.log(token);
      }, 'create');
    });
}

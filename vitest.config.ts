import { availableParallelism } from 'node:os';
import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    exclude: ['test/bench/**', 'node_modules/**'],
    testTimeout: 30_000,
    hookTimeout: 60_000,
    pool: 'forks',
    // vitest's default is one worker fewer than the cores: a single worker on a 2-core machine, where much
    // of the suite waits on child processes, sockets and timers. One worker a core overlaps those waits
    // (the whole suite on this project's 2-core machine: 519 s with 1 worker, 351 s with 3); not more, since
    // the pairing large-set test runs its own processes beside the workers, and with 3 a CPU-bound test
    // beside it ran past its timeout.
    maxWorkers: availableParallelism(),
    globalSetup: ['test/helpers/buildCli.ts'],
  },
});

// Runs the CLI from source (tests): the same `main` the bin script runs from dist.
import { main } from '../../src/cli/index.js';

await main(process.argv);

// Worker threads do not inherit vitest's TypeScript loader: register tsx, then load the writer.
import { register } from 'tsx/esm/api';

register();
await import('./concurrentWriter.ts');

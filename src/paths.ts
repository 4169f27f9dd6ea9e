import { existsSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

/**
 * The package root, found by walking up from this file: the same code runs from `src/`
 * (tests, tsx) and from `dist/src/` (the built CLI and the packed tarball).
 */
function findRoot(): string {
  let dir = dirname(fileURLToPath(import.meta.url));
  for (;;) {
    const candidate = join(dir, 'package.json');
    if (existsSync(candidate)) {
      const pkg = JSON.parse(readFileSync(candidate, 'utf8')) as { name?: string };
      if (pkg.name === 'chess-footprint') return dir;
    }
    const parent = dirname(dir);
    if (parent === dir) throw new Error('chess-footprint package root not found');
    dir = parent;
  }
}

export const packageRoot = findRoot();
export const packageJson = JSON.parse(readFileSync(join(packageRoot, 'package.json'), 'utf8')) as {
  name: string;
  version: string;
  description: string;
  /** The server's name in the MCP Registry (reverse-DNS namespace / name); server.json repeats it. */
  mcpName: string;
};
export const migrationsDir = join(packageRoot, 'src', 'store', 'migrations');
export const dataDir = join(packageRoot, 'data');
/** The chat board (MCP Apps): one self-contained HTML file, built by web/app/build.ts, served by tools/app.ts. */
export const CHAT_BOARD_FILE = 'chat-board.html';
export const chatBoardPath = join(packageRoot, 'dist', 'web', CHAT_BOARD_FILE);

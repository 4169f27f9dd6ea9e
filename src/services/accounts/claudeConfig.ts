import { join, resolve } from 'node:path';
import { packageRoot } from '../../paths.js';

/** The key of this server under `mcpServers` in Claude Desktop's configuration. */
export const SERVER_NAME = 'chess-footprint';

/**
 * How to run this CLI again: the bare name when installed (npm links it on PATH), else node and the
 * absolute bin. In a clone `chess-footprint` is on no PATH, and the npm registry name is not ours
 * (unpublished), so printing the bare name there would send a user or an agent to someone else's package.
 */
export function cliCommand(): string {
  const bin = join(packageRoot, 'bin', 'chess-footprint.js');
  return packageRoot.split(/[\\/]/).includes('node_modules') ? 'chess-footprint' : `node ${bin}`;
}

/** Where the token goes until there is one: the command that prints one for this store, as this installation runs it. */
export function tokenPlaceholder(dataDir: string): string {
  return `<a token from \`${cliCommand()} token create --name claude --data-dir ${resolve(dataDir)}\`>`;
}

export interface McpServerEntry {
  command: string;
  args: string[];
  env: { CFP_TOKEN: string };
}

/**
 * How Claude Desktop starts this installation over stdio. Everything is absolute: Claude starts
 * servers from its own working directory with its own PATH, so neither `npx` (the package is not
 * on the registry) nor a relative data folder would find this store.
 */
export function mcpServerEntry(opts: { dataDir: string; token: string | null }): McpServerEntry {
  return {
    command: process.execPath,
    args: [join(packageRoot, 'bin', 'chess-footprint.js'), 'mcp', '--data-dir', resolve(opts.dataDir)],
    env: { CFP_TOKEN: opts.token ?? tokenPlaceholder(opts.dataDir) },
  };
}

/** The entry as one shell command line (llms.txt): what Claude Desktop runs, with the token in the environment. */
export function stdioCommandLine(dataDir: string): string {
  const { command, args } = mcpServerEntry({ dataDir, token: null });
  return `CFP_TOKEN=cfp_… ${[command, ...args].map((a) => (/^[\w@%+=:,./-]+$/.test(a) ? a : `'${a.replace(/'/g, `'\\''`)}'`)).join(' ')}`;
}

/** The snippet to paste into claude_desktop_config.json (what `claude-config` prints). */
export function claudeConfigJson(entry: McpServerEntry): string {
  return JSON.stringify({ mcpServers: { [SERVER_NAME]: entry } }, null, 2);
}

/**
 * What the dashboard's settings page shows (src/http/settings): the Claude Desktop entry `claude-config`
 * prints (stdio, absolute paths), and for MCP clients that speak streamable HTTP, this server's URL with
 * the bearer header. Neither holds a real token: the page says to create one.
 */
export function claudeDesktopConfig(opts: { mcpUrl: string; dataDir: string }) {
  return {
    tokenPlaceholder: tokenPlaceholder(opts.dataDir),
    /** The command that writes the stdio entry for this store, as this installation runs it. */
    writeCommand: `${cliCommand()} claude-config --write --data-dir ${resolve(opts.dataDir)}`,
    stdio: { mcpServers: { [SERVER_NAME]: mcpServerEntry({ dataDir: opts.dataDir, token: null }) } },
    http: { mcpServers: { [SERVER_NAME]: { type: 'http', url: opts.mcpUrl, headers: { Authorization: `Bearer ${tokenPlaceholder(opts.dataDir)}` } } } },
  };
}

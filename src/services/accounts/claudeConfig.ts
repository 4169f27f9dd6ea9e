import { join, resolve } from 'node:path';
import { packageRoot } from '../../paths.js';

/** The key of this server under `mcpServers` in Claude Desktop's configuration. */
export const SERVER_NAME = 'chess-footprint';
export const TOKEN_PLACEHOLDER = '<a token from `chess-footprint token create --name claude`>';

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
    env: { CFP_TOKEN: opts.token ?? TOKEN_PLACEHOLDER },
  };
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
    stdio: { mcpServers: { [SERVER_NAME]: mcpServerEntry({ dataDir: opts.dataDir, token: null }) } },
    http: { mcpServers: { [SERVER_NAME]: { type: 'http', url: opts.mcpUrl, headers: { Authorization: `Bearer ${TOKEN_PLACEHOLDER}` } } } },
  };
}

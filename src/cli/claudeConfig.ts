import { copyFileSync, existsSync, mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { homedir } from 'node:os';
import { dirname, join } from 'node:path';
import { CliError } from './errors.js';

export { SERVER_NAME, CLAUDE_TOKEN_NAME, tokenPlaceholder, cliCommand, storeCommand, mcpServerEntry, claudeCodeCommand, claudeConfigJson, type McpServerEntry } from '../services/accounts/index.js';
import { SERVER_NAME, type McpServerEntry } from '../services/accounts/index.js';

/** Claude Desktop's configuration file on this platform (as Claude Desktop's documentation places it). */
export function claudeDesktopConfigPath(platform: NodeJS.Platform = process.platform, env: NodeJS.ProcessEnv = process.env, home = homedir()): string {
  if (platform === 'darwin') return join(home, 'Library', 'Application Support', 'Claude', 'claude_desktop_config.json');
  if (platform === 'win32') return join(env.APPDATA ?? join(home, 'AppData', 'Roaming'), 'Claude', 'claude_desktop_config.json');
  return join(env.XDG_CONFIG_HOME ?? join(home, '.config'), 'Claude', 'claude_desktop_config.json');
}

/**
 * The token this server's entry in a Claude Desktop configuration file carries, if the file is there
 * and holds one; null otherwise (a missing or unreadable file is not an error here: the caller then
 * has no token to reuse, nothing more).
 */
export function tokenInClaudeConfig(file: string): string | null {
  try {
    const config = JSON.parse(readFileSync(file, 'utf8')) as { mcpServers?: Record<string, { env?: { CFP_TOKEN?: unknown } }> };
    const token = config?.mcpServers?.[SERVER_NAME]?.env?.CFP_TOKEN;
    return typeof token === 'string' ? token : null;
  } catch {
    return null;
  }
}

/**
 * Puts this server into the configuration file, keeping every other key and server. The previous
 * file is copied to `<file>.bak-<timestamp>` first; the new one is written whole (temp file and
 * rename), mode 0600 since it holds the token. A file that is not JSON is left alone.
 */
export function mergeIntoClaudeConfig(file: string, entry: McpServerEntry, now = new Date()): { backup: string | null; replaced: boolean } {
  let config: { mcpServers?: Record<string, unknown> } & Record<string, unknown> = {};
  let backup: string | null = null;
  if (existsSync(file)) {
    const text = readFileSync(file, 'utf8');
    try {
      config = text.trim() ? JSON.parse(text) : {};
    } catch {
      throw new CliError(`${file} is not valid JSON; fix or move it, then run claude-config --write again (nothing was changed)`);
    }
    if (typeof config !== 'object' || config === null || Array.isArray(config)) throw new CliError(`${file} does not hold a JSON object; nothing was changed`);
    backup = `${file}.bak-${now.toISOString().replace(/[:.]/g, '-')}`;
    copyFileSync(file, backup);
  }
  const servers = config.mcpServers && typeof config.mcpServers === 'object' ? config.mcpServers : {};
  const replaced = SERVER_NAME in servers;
  const next = { ...config, mcpServers: { ...servers, [SERVER_NAME]: entry } };
  mkdirSync(dirname(file), { recursive: true });
  const tmp = `${file}.tmp-${process.pid}`;
  writeFileSync(tmp, JSON.stringify(next, null, 2) + '\n', { mode: 0o600 });
  renameSync(tmp, file);
  return { backup, replaced };
}

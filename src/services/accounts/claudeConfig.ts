import { join, resolve } from 'node:path';
import { packageRoot } from '../../paths.js';

/** The key of this server under `mcpServers` in Claude Desktop's configuration (and its name in Claude Code). */
export const SERVER_NAME = 'chess-footprint';

/**
 * The name of the token an agent's entry carries: the one `claude-config` issues (only `--rotate` revokes
 * the previous ones) and the one the printed placeholder tells the player to create, so both name one token.
 */
export const CLAUDE_TOKEN_NAME = 'claude-desktop';

/**
 * How to run this CLI again: the bare name when installed (npm links it on PATH), else node and the
 * absolute bin. In a clone `chess-footprint` is on no PATH, and the npm registry name is not ours
 * (unpublished), so printing the bare name there would send a user or an agent to someone else's package.
 */
export function cliCommand(): string {
  const bin = join(packageRoot, 'bin', 'chess-footprint.js');
  return packageRoot.split(/[\\/]/).includes('node_modules') ? 'chess-footprint' : `node ${bin}`;
}

/** Words as a POSIX shell reads them back: a word of safe characters as is, any other in single quotes. */
export const shellWords = (words: readonly string[]) => words.map((a) => (/^[\w@%+=:,./-]+$/.test(a) ? a : `'${a.replace(/'/g, `'\\''`)}'`)).join(' ');

/**
 * A command of this CLI that works as printed on the store it came from (issue 45: every printed
 * command works as printed): the words after the command name, then `--data-dir` with the store's
 * absolute folder, shell-quoted. Without it a hint printed for `--data-dir .data` would run on
 * ~/.chess-footprint, where no store is, and exit 3.
 */
export function storeCommand(dataDir: string, args: string): string {
  return `${cliCommand()} ${args} --data-dir ${shellWords([resolve(dataDir)])}`;
}

/** Where the token goes until there is one: the command that prints one for this store, as this installation runs it. */
export function tokenPlaceholder(dataDir: string): string {
  return `<a token from \`${storeCommand(dataDir, `token create --name ${CLAUDE_TOKEN_NAME}`)}\`>`;
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
  return `CFP_TOKEN=cfp_… ${shellWords([command, ...args])}`;
}

/**
 * The same entry added to Claude Code (its `claude mcp add` command: options, the server's name, then
 * after `--` the command and its arguments). User scope, so the player's chess data answers in every
 * project, not only the folder the command ran in.
 */
export function claudeCodeCommand(entry: McpServerEntry): string {
  return shellWords(['claude', 'mcp', 'add', '--transport', 'stdio', '--scope', 'user', '--env', `CFP_TOKEN=${entry.env.CFP_TOKEN}`, SERVER_NAME, '--', entry.command, ...entry.args]);
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
    writeCommand: storeCommand(opts.dataDir, 'claude-config --write'),
    stdio: { mcpServers: { [SERVER_NAME]: mcpServerEntry({ dataDir: opts.dataDir, token: null }) } },
    claudeCode: claudeCodeCommand(mcpServerEntry({ dataDir: opts.dataDir, token: null })),
    http: { mcpServers: { [SERVER_NAME]: { type: 'http', url: opts.mcpUrl, headers: { Authorization: `Bearer ${tokenPlaceholder(opts.dataDir)}` } } } },
  };
}

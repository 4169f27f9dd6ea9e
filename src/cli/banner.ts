import { claudeCodeCommand, claudeConfigJson, cliCommand, mcpServerEntry, storeCommand } from './claudeConfig.js';
import { signInLinkNote } from './signInLink.js';

export { cliCommand };

/** The token line: the token when one was just issued, else how to get one (tokens are shown once). */
export function tokenLines(token: string | null, dataDir: string): string[] {
  if (token) return [`token:      ${token}`];
  return [
    'token:      the token printed when this store was created still works (tokens are shown once);',
    `            \`${storeCommand(dataDir, 'token create --name NAME')}\` prints another`,
  ];
}

/** The Claude Desktop paragraph: the command that writes the configuration, and the snippet itself. */
export function claudeDesktopLines(token: string | null, dataDir: string): string[] {
  return [
    `Claude Desktop: \`${storeCommand(dataDir, 'claude-config --write')}\` adds this store to claude_desktop_config.json,`,
    'or paste this into it (mcpServers):',
    claudeConfigJson(mcpServerEntry({ dataDir, token })),
    `Claude Code: ${claudeCodeCommand(mcpServerEntry({ dataDir, token }))}`,
  ];
}

/** Everything `serve` prints once it listens (stdout): one place, so additions stay together. */
export function serveBanner(opts: { url: string; dataDir: string; token: string | null; signIn?: string | null }): string {
  const { url, dataDir, token, signIn } = opts;
  return [
    `listening on ${url}`,
    `REST API:   ${url}/api/v1   (OpenAPI: ${url}/openapi.json)`,
    `MCP server: ${url}/api/mcp`,
    `health:     ${url}/health`,
    `data:       ${dataDir}`,
    ...(signIn ? [`dashboard:  ${signIn}   (${signInLinkNote(dataDir)})`] : []),
    ...tokenLines(token, dataDir),
    ...claudeDesktopLines(token, dataDir),
  ].join('\n');
}

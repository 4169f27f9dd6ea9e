/** Ready-to-paste Claude Desktop configuration for both ways of connecting. */
export function claudeDesktopSnippet(opts: { mcpUrl: string; token: string | null; dataDir: string }): string {
  const token = opts.token ?? '<your cfp_ token>';
  const stdio = {
    mcpServers: {
      'chess-footprint': {
        command: 'npx',
        args: ['chess-footprint', 'mcp', '--data-dir', opts.dataDir],
        env: { CFP_TOKEN: token },
      },
    },
  };
  const http = {
    mcpServers: {
      'chess-footprint': {
        command: 'npx',
        args: ['mcp-remote', opts.mcpUrl, '--header', `Authorization: Bearer ${token}`],
      },
    },
  };
  return [
    'Claude Desktop (claude_desktop_config.json), over stdio:',
    JSON.stringify(stdio, null, 2),
    'or over HTTP to this running server:',
    JSON.stringify(http, null, 2),
  ].join('\n');
}

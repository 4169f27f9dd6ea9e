export const TOKEN_PLACEHOLDER = '<your cfp_ token>';

/**
 * Claude Desktop configuration (claude_desktop_config.json) for both ways of connecting:
 * stdio (`chess-footprint mcp`) and HTTP to a running server through mcp-remote.
 * The dashboard's settings page shows the same objects (src/http/settings).
 */
export function claudeDesktopConfig(opts: { mcpUrl: string; token: string | null; dataDir: string }) {
  const token = opts.token ?? TOKEN_PLACEHOLDER;
  return {
    stdio: {
      mcpServers: {
        'chess-footprint': {
          command: 'npx',
          args: ['chess-footprint', 'mcp', '--data-dir', opts.dataDir],
          env: { CFP_TOKEN: token },
        },
      },
    },
    http: {
      mcpServers: {
        'chess-footprint': {
          command: 'npx',
          args: ['mcp-remote', opts.mcpUrl, '--header', `Authorization: Bearer ${token}`],
        },
      },
    },
  };
}

/** Ready-to-paste Claude Desktop configuration for both ways of connecting. */
export function claudeDesktopSnippet(opts: { mcpUrl: string; token: string | null; dataDir: string }): string {
  const { stdio, http } = claudeDesktopConfig(opts);
  return [
    'Claude Desktop (claude_desktop_config.json), over stdio:',
    JSON.stringify(stdio, null, 2),
    'or over HTTP to this running server:',
    JSON.stringify(http, null, 2),
  ].join('\n');
}

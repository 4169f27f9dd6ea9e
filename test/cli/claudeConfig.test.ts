import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, test } from 'vitest';
import { CLAUDE_TOKEN_NAME, claudeCodeCommand, claudeConfigJson, claudeDesktopConfigPath, mcpServerEntry, tokenPlaceholder } from '../../src/cli/claudeConfig.js';
import { REPO_ROOT } from '../helpers/fixtures.js';

describe('the Claude Desktop configuration', () => {
  test("Claude Desktop's file on each platform", () => {
    expect(claudeDesktopConfigPath('darwin', {}, '/Users/ann')).toBe('/Users/ann/Library/Application Support/Claude/claude_desktop_config.json');
    expect(claudeDesktopConfigPath('win32', { APPDATA: 'C:\\Users\\ann\\AppData\\Roaming' }, 'C:\\Users\\ann')).toBe(join('C:\\Users\\ann\\AppData\\Roaming', 'Claude', 'claude_desktop_config.json'));
    expect(claudeDesktopConfigPath('linux', {}, '/home/ann')).toBe('/home/ann/.config/Claude/claude_desktop_config.json');
    expect(claudeDesktopConfigPath('linux', { XDG_CONFIG_HOME: '/home/ann/.cfg' }, '/home/ann')).toBe('/home/ann/.cfg/Claude/claude_desktop_config.json');
  });

  test('a relative data folder is made absolute; the token goes in env', () => {
    const e = mcpServerEntry({ dataDir: 'rel/data', token: 'cfp_x' });
    expect(e.command).toBe(process.execPath);
    expect(e.args).toEqual([join(REPO_ROOT, 'bin', 'chess-footprint.js'), 'mcp', '--data-dir', join(process.cwd(), 'rel', 'data')]);
    expect(e.env).toEqual({ CFP_TOKEN: 'cfp_x' });
  });

  test('the Claude Code command adds the same entry: name, then the command after --, the token in --env', () => {
    const entry = { command: '/usr/bin/node', args: ['/opt/my chess/bin/chess-footprint.js', 'mcp', '--data-dir', '/home/ann/.chess-footprint'], env: { CFP_TOKEN: 'cfp_abc' } };
    // Written by hand from `claude mcp add [options] <name> <commandOrUrl> [args...]`; the path with a space quoted for the shell.
    expect(claudeCodeCommand(entry)).toBe(
      "claude mcp add --transport stdio --scope user --env CFP_TOKEN=cfp_abc chess-footprint -- /usr/bin/node '/opt/my chess/bin/chess-footprint.js' mcp --data-dir /home/ann/.chess-footprint",
    );
  });

  test('the placeholder names the token claude-config issues', () => {
    expect(CLAUDE_TOKEN_NAME).toBe('claude-desktop');
    expect(tokenPlaceholder('/d')).toMatch(/ token create --name claude-desktop --data-dir \/d`>$/);
  });

  test("the README's entry is what claude-config prints, with this machine's paths in place of the example's", () => {
    const readme = readFileSync(join(REPO_ROOT, 'README.md'), 'utf8');
    const section = readme.slice(readme.indexOf('## Connect your agent'));
    const block = /```json\n([\s\S]*?)\n```/.exec(section)![1];
    const example = JSON.parse(block) as { mcpServers: { 'chess-footprint': { command: string; args: string[]; env: { CFP_TOKEN: string } } } };
    const ex = example.mcpServers['chess-footprint'];
    const printed = claudeConfigJson(mcpServerEntry({ dataDir: '/home/you/chess-footprint/.data', token: 'cfp_…' }));
    const expected = printed.replace(JSON.stringify(process.execPath), JSON.stringify(ex.command)).replace(JSON.stringify(join(REPO_ROOT, 'bin', 'chess-footprint.js')), JSON.stringify(ex.args[0]));
    expect(block).toBe(expected);
  });
});

import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, test } from 'vitest';
import { claudeConfigJson, claudeDesktopConfigPath, mcpServerEntry } from '../../src/cli/claudeConfig.js';
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

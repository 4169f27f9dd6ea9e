import type { Command } from 'commander';
import { replaceNamedToken, verifyToken } from '../auth/tokens.js';
import { CLAUDE_TOKEN_NAME, claudeCodeCommand, claudeConfigJson, claudeDesktopConfigPath, mcpServerEntry, mergeIntoClaudeConfig } from './claudeConfig.js';
import { CliError, EXIT } from './errors.js';
import { requireAccount, storeOptions, withApp, type StoreOptions } from './common.js';

interface ClaudeConfigOptions extends StoreOptions {
  token?: string;
  write?: boolean;
  configFile?: string;
}

export function registerClaudeConfigCommand(program: Command): void {
  storeOptions(
    program
      .command('claude-config')
      .description(
        'print the Claude Desktop configuration that starts this installation over stdio (absolute node, script and data folder; the token in env), and on stderr the `claude mcp add` command that adds the same to Claude Code; with --write, merge it into claude_desktop_config.json',
      )
      .option('--write', "merge into Claude Desktop's claude_desktop_config.json (other servers kept, the old file backed up)")
      .option('--token <token>', 'use this token (default $CFP_TOKEN; else a new token named claude-desktop replaces the previous one)')
      .option('--config-file <file>', 'the file --write changes (default: Claude Desktop\'s, for this platform)'),
  ).action(async (opts: ClaudeConfigOptions) => {
    await withApp(opts, (deps) => {
      const user = requireAccount(deps, opts);
      const given = opts.token ?? process.env.CFP_TOKEN;
      let token: string;
      if (given) {
        if (verifyToken(deps.store, given)?.id !== user.id) {
          throw new CliError(`that token is not a live token of ${user.email} in the store at ${deps.config.dataDir}`, EXIT.usage);
        }
        token = given;
      } else {
        const issued = replaceNamedToken(deps.store, deps.clock, user.id, CLAUDE_TOKEN_NAME);
        token = issued.token;
        console.error(`issued a token named ${CLAUDE_TOKEN_NAME} for ${user.email}${issued.revoked ? ` (the previous ${CLAUDE_TOKEN_NAME} token is revoked)` : ''}`);
      }
      const entry = mcpServerEntry({ dataDir: deps.config.dataDir, token });
      // stdout stays the JSON alone (it is pasted or piped into a file); the Claude Code command is a note beside it.
      console.error(`Claude Code: ${claudeCodeCommand(entry)}`);
      if (!opts.write) {
        console.log(claudeConfigJson(entry));
        return;
      }
      const file = opts.configFile ?? claudeDesktopConfigPath();
      const { backup, replaced } = mergeIntoClaudeConfig(file, entry, deps.clock.now());
      console.error(`${replaced ? 'updated' : 'added'} the chess-footprint server in ${file}${backup ? ` (previous file kept as ${backup})` : ''}; restart Claude Desktop to use it`);
    });
  });
}

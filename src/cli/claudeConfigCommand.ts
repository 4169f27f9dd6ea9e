import type { Command } from 'commander';
import { issueToken, listTokens, replaceNamedToken, verifyToken } from '../auth/tokens.js';
import type { AppDeps, User } from '../context.js';
import { CLAUDE_TOKEN_NAME, claudeCodeCommand, claudeConfigJson, claudeDesktopConfigPath, mcpServerEntry, mergeIntoClaudeConfig, storeCommand, tokenInClaudeConfig } from './claudeConfig.js';
import { CliError, EXIT } from './errors.js';
import { requireAccount, storeOptions, withApp, type StoreOptions } from './common.js';

interface ClaudeConfigOptions extends StoreOptions {
  token?: string;
  write?: boolean;
  rotate?: boolean;
  configFile?: string;
}

/**
 * Which token the entry carries, and what was done to get it (issue 45: printing an entry never
 * changes a token; rotating is explicit). In order: the token given; with --rotate a new
 * claude-desktop token that revokes the earlier ones; the live token already in Claude Desktop's file;
 * a new claude-desktop token when none is live (nothing revoked) or when --write needs one; else
 * (printing, a claude-desktop token live elsewhere) the placeholder, since a token is shown once only.
 */
function chooseToken(deps: AppDeps, user: User, opts: ClaudeConfigOptions, file: string): { token: string | null; note: string } {
  const given = opts.token ?? process.env.CFP_TOKEN;
  if (given) {
    if (verifyToken(deps.store, given, deps.clock)?.id !== user.id) {
      throw new CliError(`that token is not a live token of ${user.email} in the store at ${deps.config.dataDir}`, EXIT.usage);
    }
    return { token: given, note: 'using the token given' };
  }
  if (opts.rotate) {
    const issued = replaceNamedToken(deps.store, deps.clock, user.id, CLAUDE_TOKEN_NAME);
    return {
      token: issued.token,
      note: `rotated: issued a new token named ${CLAUDE_TOKEN_NAME} for ${user.email}${issued.revoked ? ` and revoked the previous ${issued.revoked === 1 ? 'one' : `${issued.revoked}`} (a client still using it is refused until its entry has the new token)` : ' (there was none to revoke)'}`,
    };
  }
  const inFile = tokenInClaudeConfig(file);
  if (inFile && verifyToken(deps.store, inFile, deps.clock)?.id === user.id) return { token: inFile, note: `reusing the live token already in ${file} (nothing changed; --rotate replaces it)` };
  const nowIso = deps.clock.now().toISOString();
  const live = listTokens(deps.store, user.id).filter((t) => t.name === CLAUDE_TOKEN_NAME && !t.revokedAt && !(t.expiresAt && t.expiresAt <= nowIso));
  if (live.length && !opts.write) {
    return {
      token: null,
      note: `a ${CLAUDE_TOKEN_NAME} token is live already and a token is shown only once, so the entry has a placeholder: pass --token cfp_… (or set CFP_TOKEN) to print it with a token you hold, or --rotate to issue a new ${CLAUDE_TOKEN_NAME} token (this revokes the live one)`,
    };
  }
  const issued = issueToken(deps.store, deps.clock, user.id, CLAUDE_TOKEN_NAME);
  return {
    token: issued.token,
    note: live.length
      ? `issued a new token named ${CLAUDE_TOKEN_NAME} for ${user.email}; the ${live.length === 1 ? 'earlier one stays' : `${live.length} earlier ones stay`} live (\`${storeCommand(deps.config.dataDir, 'token list')}\` and \`token revoke ID\` once nothing uses ${live.length === 1 ? 'it' : 'them'}, or --rotate next time)`
      : `issued a token named ${CLAUDE_TOKEN_NAME} for ${user.email} (nothing revoked)`,
  };
}

export function registerClaudeConfigCommand(program: Command): void {
  storeOptions(
    program
      .command('claude-config')
      .description(
        'print the Claude Desktop configuration that starts this installation over stdio (absolute node, script and data folder; the token in env), and on stderr the `claude mcp add` command that adds the same to Claude Code; with --write, merge it into claude_desktop_config.json. Never revokes a token unless --rotate',
      )
      .option('--write', "merge into Claude Desktop's claude_desktop_config.json (other servers kept, the old file backed up; a live token already there is kept)")
      .option('--token <token>', 'use this token (default $CFP_TOKEN; else the live token in Claude Desktop\'s file, else a new token named claude-desktop when none is live or with --write, else a placeholder)')
      .option('--rotate', 'issue a new claude-desktop token and revoke the previous ones (a client using one of them stops working until its entry is updated)')
      .option('--config-file <file>', 'Claude Desktop\'s file, read for its token and changed by --write (default: Claude Desktop\'s, for this platform)'),
  ).action(async (opts: ClaudeConfigOptions) => {
    await withApp(opts, (deps) => {
      const user = requireAccount(deps, opts);
      const file = opts.configFile ?? claudeDesktopConfigPath();
      const { token, note } = chooseToken(deps, user, opts, file);
      console.error(note);
      const entry = mcpServerEntry({ dataDir: deps.config.dataDir, token });
      // stdout stays the JSON alone (it is pasted or piped into a file); the Claude Code command is a note beside it.
      console.error(`Claude Code: ${claudeCodeCommand(entry)}`);
      if (!opts.write) {
        console.log(claudeConfigJson(entry));
        return;
      }
      const { backup, replaced } = mergeIntoClaudeConfig(file, entry, deps.clock.now());
      console.error(`${replaced ? 'updated' : 'added'} the chess-footprint server in ${file}${backup ? ` (previous file kept as ${backup})` : ''}; restart Claude Desktop to use it`);
    });
  });
}

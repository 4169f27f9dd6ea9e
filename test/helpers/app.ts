import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createAppDeps } from '../../src/app.js';
import { issueToken } from '../../src/auth/tokens.js';
import { fixedClock, type Clock } from '../../src/clock.js';
import { loadConfig, type Config } from '../../src/config.js';
import type { AppDeps, Caller, PersonalCtx, User } from '../../src/context.js';
import { invokeTool } from '../../src/facade/invoke.js';
import { createUser } from '../../src/services/accounts/accounts.js';
import { openStore, storeFile } from '../../src/store/db.js';
import type { AnyTool } from '../../tools/defineTool.js';

export interface TestApp {
  deps: AppDeps;
  dir: string;
  clock: ReturnType<typeof fixedClock>;
  config: Config;
  /** Adds an account and a token for it. */
  addUser(name?: string, email?: string): { user: User; token: string; ctx: PersonalCtx };
  /** Calls a tool through the same path REST and MCP use (auth, limits, validation). */
  call(tool: AnyTool, input: unknown, token?: string, caller?: Caller): ReturnType<typeof invokeTool>;
  close(): Promise<void>;
}

/**
 * A real store in a temporary folder with a movable clock. Rate limits are off unless asked for,
 * so a test exercises the service rather than the limiter.
 */
export function makeTestApp(opts: { env?: Record<string, string>; now?: string; clock?: Clock; serving?: boolean } = {}): TestApp {
  const dir = mkdtempSync(join(tmpdir(), 'cfp-test-'));
  const config = loadConfig({ dataDir: dir }, { CFP_RATE_LIMITS: 'off', ...opts.env });
  const clock = fixedClock(opts.now ?? '2026-11-20T12:00:00Z');
  const store = openStore(storeFile(dir));
  const deps = createAppDeps(config, { clock: opts.clock ?? clock, store, serving: opts.serving });
  let n = 0;
  return {
    deps,
    dir,
    clock,
    config,
    addUser(name, email) {
      n += 1;
      const user = createUser(deps.store, deps.clock, {
        displayName: name ?? `Player ${n}`,
        email: email ?? `player${n}@example.test`,
      });
      const { token } = issueToken(deps.store, deps.clock, user.id, 'test');
      return { user, token, ctx: { ...deps, user, caller: { surface: 'rest', key: 'test' } } };
    },
    call: (tool, input, token, caller = { surface: 'rest', key: '127.0.0.1' }) => invokeTool(tool, deps, caller, token, input),
    async close() {
      await deps.runtime.close();
      deps.limiter.close();
      deps.store.close();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

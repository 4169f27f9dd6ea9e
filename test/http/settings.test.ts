import { createHash } from 'node:crypto';
import { dereference, validate } from '@readme/openapi-parser';
import { isAbsolute } from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { issueSignInCode, SIGN_IN_CODE_TTL_MS } from '../../src/auth/sessions.js';
import { CONTENT_SECURITY_POLICY } from '../../src/http/dashboard.js';
import type { Listening } from '../../src/http/listen.js';
import { importPgnLines } from '../../src/services/games/imports.js';
import { SMTP_SETUP_HINT } from '../../src/services/reports/index.js';
import { tools } from '../../tools/index.js';
import { makeTestApp, type TestApp } from '../helpers/app.js';
import { rest, startServer } from '../helpers/server.js';

let app: TestApp;
let server: Listening;
let alice: ReturnType<TestApp['addUser']>;
let bob: ReturnType<TestApp['addUser']>;

beforeAll(async () => {
  app = makeTestApp();
  alice = app.addUser('Alice', 'alice@example.test');
  bob = app.addUser('Bob', 'bob@example.test');
  server = await startServer(app);
});
afterAll(async () => {
  await server.close();
  await app.close();
});

/** Signs in with a code the way the dashboard does (POST from its own origin); returns the cookie pair. */
async function signIn(code: string, origin = server.url) {
  const res = await rest(server.url, '/api/v1/settings/session', { method: 'POST', headers: { 'Content-Type': 'application/json', Origin: origin }, body: JSON.stringify({ code }) });
  const setCookie = res.headers.get('set-cookie') ?? '';
  return { ...res, setCookie, cookie: setCookie.split(';')[0] };
}

describe('sign-in', () => {
  test('a one-time code opens an HttpOnly SameSite=Strict session once; the second use is refused', async () => {
    const code = issueSignInCode(app.deps.store, app.deps.clock, alice.user.id);
    const first = await signIn(code);
    expect(first.status).toBe(200);
    expect(first.body.account).toEqual({ displayName: 'Alice', email: 'alice@example.test' });
    expect(first.setCookie).toMatch(/^cfp_session=[A-Za-z0-9_-]{43}; Path=\/; HttpOnly; SameSite=Strict; Max-Age=2592000$/);
    const second = await signIn(code);
    expect(second.status).toBe(401);
    expect(second.setCookie).toBe('');
    // The cookie reads the owner's data on the REST routes and the settings API.
    const me = await rest(server.url, '/api/v1/me', { headers: { Cookie: first.cookie } });
    expect(me.status).toBe(200);
    expect(me.body.displayName).toBe('Alice');
    // Only the SHA-256 of the cookie value is stored, never the value.
    const value = first.cookie.slice('cfp_session='.length);
    const stored = (app.deps.store.sqlite.prepare('SELECT * FROM sessions').all() as Array<Record<string, unknown>>).flatMap((r) => Object.values(r));
    expect(stored).not.toContain(value);
    expect(stored).toContain(createHash('sha256').update(value).digest('hex'));
  });

  test('a code expires after ten minutes', async () => {
    const code = issueSignInCode(app.deps.store, app.deps.clock, alice.user.id);
    app.clock.advance(SIGN_IN_CODE_TTL_MS + 1);
    const expired = await signIn(code);
    expect(expired.status).toBe(401);
    // The sign-in page shows this as text: the command in words, no backticks (issue 45 item 4).
    expect(expired.body.error).toBe(
      'That sign-in link has expired or was used already: a link works once, for 10 minutes. For a new one, run the sign-in-link command of chess-footprint on the machine that runs this server (with its --data-dir), or paste a token.',
    );
    const badToken = await rest(server.url, '/api/v1/settings/session', { method: 'POST', headers: { 'Content-Type': 'application/json', Origin: server.url }, body: JSON.stringify({ token: `cfp_${'z'.repeat(43)}` }) });
    expect(badToken.status).toBe(401);
    expect(badToken.body.error).toMatch(/^That token is not valid/);
    for (const e of [expired.body.error, badToken.body.error]) expect(e).not.toContain('`');
  });

  test('a token signs in too; malformed input answers 400 and nothing is opened', async () => {
    const ok = await rest(server.url, '/api/v1/settings/session', { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify({ token: bob.token }) });
    expect(ok.status).toBe(200);
    expect(ok.body.account.email).toBe('bob@example.test');
    for (const body of ['{}', '{"code":"x","token":"y"}', '[1]', '{"code":5}', 'not json']) {
      const res = await rest(server.url, '/api/v1/settings/session', { method: 'POST', headers: { 'Content-Type': 'application/json' }, body });
      expect(res.status, body).toBe(400);
      expect(res.body.error).toBeTypeOf('string');
    }
    expect((await rest(server.url, '/api/v1/settings/session', { method: 'POST', headers: { 'Content-Type': 'text/plain' }, body: 'x' })).status).toBe(415);
  });

  test('sign-in from another origin is refused (login CSRF)', async () => {
    const code = issueSignInCode(app.deps.store, app.deps.clock, alice.user.id);
    expect((await signIn(code, 'http://evil.example')).status).toBe(403);
    // Fetch Metadata alone is enough: cross-site (or same-site) with no Origin header is refused too.
    for (const site of ['cross-site', 'same-site']) {
      const res = await rest(server.url, '/api/v1/settings/session', { method: 'POST', headers: { 'Content-Type': 'application/json', 'Sec-Fetch-Site': site }, body: JSON.stringify({ code }) });
      expect(res.status, site).toBe(403);
      expect(res.headers.get('set-cookie')).toBeNull();
    }
    // The code was not spent by the refused attempts.
    expect((await signIn(code)).status).toBe(200);
  });
});

describe('the session cookie and cross-origin requests', () => {
  let cookie: string;
  beforeAll(async () => {
    cookie = (await signIn(issueSignInCode(app.deps.store, app.deps.clock, alice.user.id))).cookie;
  });

  test('a read from another site (Origin or Sec-Fetch-Site) is refused; a same-origin read works', async () => {
    expect((await rest(server.url, '/api/v1/me/games', { headers: { Cookie: cookie, Origin: 'http://evil.example' } })).status).toBe(403);
    expect((await rest(server.url, '/api/v1/me/games', { headers: { Cookie: cookie, 'Sec-Fetch-Site': 'cross-site' } })).status).toBe(403);
    expect((await rest(server.url, '/api/v1/me/games', { headers: { Cookie: cookie, 'Sec-Fetch-Site': 'same-origin' } })).status).toBe(200);
    expect((await rest(server.url, '/api/v1/me/games', { headers: { Cookie: cookie, Origin: server.url } })).status).toBe(200);
  });

  test('a state-changing request with the cookie needs this origin: none or another is refused, nothing changes', async () => {
    const body = JSON.stringify({ name: 'csrf' });
    const headers = { Cookie: cookie, 'Content-Type': 'application/json' };
    expect((await rest(server.url, '/api/v1/settings/tokens', { method: 'POST', headers, body })).status).toBe(403);
    expect((await rest(server.url, '/api/v1/settings/tokens', { method: 'POST', headers: { ...headers, Origin: 'http://evil.example' }, body })).status).toBe(403);
    expect((await rest(server.url, '/api/v1/me/coaching/focus', { method: 'POST', headers: { ...headers, Origin: 'http://evil.example' }, body: JSON.stringify({ title: 'x' }) })).status).toBe(403);
    const names = (await rest(server.url, '/api/v1/settings/tokens', { token: alice.token })).body.tokens.map((t: { name: string }) => t.name);
    expect(names).not.toContain('csrf');
    const created = await rest(server.url, '/api/v1/settings/tokens', { method: 'POST', headers: { ...headers, Origin: server.url }, body });
    expect(created.status).toBe(201);
    expect(created.headers.get('cache-control')).toBe('no-store');
  });

  test('MCP never takes the cookie', async () => {
    const res = await rest(server.url, '/api/mcp', {
      method: 'POST',
      headers: { Cookie: cookie, Origin: server.url, 'Content-Type': 'application/json', Accept: 'application/json, text/event-stream' },
      body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'get_profile', arguments: {} } }),
    });
    const text = JSON.stringify(res.body);
    expect(text).not.toContain('Alice');
  });

  test('sessions are listed, owner-scoped and revocable; sign-out ends the session', async () => {
    const second = (await signIn(issueSignInCode(app.deps.store, app.deps.clock, alice.user.id))).cookie;
    const list = await rest(server.url, '/api/v1/settings/sessions', { headers: { Cookie: second } });
    expect(list.status).toBe(200);
    const current = list.body.sessions.filter((s: { current: boolean }) => s.current);
    expect(current).toHaveLength(1);
    const other = list.body.sessions.find((s: { current: boolean }) => !s.current);
    // Bob cannot see or revoke Alice's sessions: her id is unknown to him.
    const bobList = await rest(server.url, '/api/v1/settings/sessions', { token: bob.token });
    expect(bobList.body.sessions.map((s: { id: string }) => s.id)).not.toContain(other.id);
    const bobRevoke = await rest(server.url, `/api/v1/settings/sessions/${other.id}`, { method: 'DELETE', token: bob.token });
    expect(bobRevoke.status).toBe(404);
    expect(bobRevoke.body.error).toBe((await rest(server.url, '/api/v1/settings/sessions/nope', { method: 'DELETE', token: bob.token })).body.error);
    // Sign out of the second session.
    const out = await rest(server.url, '/api/v1/settings/session', { method: 'DELETE', headers: { Cookie: second, Origin: server.url } });
    expect(out.status).toBe(200);
    expect(out.headers.get('set-cookie')).toMatch(/^cfp_session=; .*Max-Age=0/);
    expect((await rest(server.url, '/api/v1/me', { headers: { Cookie: second } })).status).toBe(401);
    expect((await rest(server.url, '/api/v1/me', { headers: { Cookie: cookie } })).status).toBe(200);
  });
});

describe('settings API', () => {
  test('needs a session or a token', async () => {
    for (const path of ['/api/v1/settings/tokens', '/api/v1/settings/connections', '/api/v1/settings/sync', '/api/v1/settings/reviews', '/api/v1/settings/email', '/api/v1/settings/claude-config']) {
      const res = await rest(server.url, path);
      expect(res.status, path).toBe(401);
      expect(res.headers.get('www-authenticate')).toBe('Bearer');
    }
  });

  test('tokens: created once in clear, listed without it, revoked tokens stop at once; another owner’s id is unknown', async () => {
    const created = await rest(server.url, '/api/v1/settings/tokens', { method: 'POST', token: alice.token, headers: { 'Content-Type': 'application/json' }, body: JSON.stringify({ name: 'laptop' }) });
    expect(created.status).toBe(201);
    expect(created.body.token).toMatch(/^cfp_[A-Za-z0-9_-]{43}$/);
    const list = await rest(server.url, '/api/v1/settings/tokens', { token: alice.token });
    expect(JSON.stringify(list.body)).not.toContain(created.body.token);
    expect(list.body.tokens.find((t: { id: string }) => t.id === created.body.id)).toMatchObject({ name: 'laptop', revokedAt: null });
    expect((await rest(server.url, `/api/v1/settings/tokens/${created.body.id}`, { method: 'DELETE', token: bob.token })).status).toBe(404);
    expect((await rest(server.url, '/api/v1/me', { token: created.body.token })).status).toBe(200);
    expect((await rest(server.url, `/api/v1/settings/tokens/${created.body.id}`, { method: 'DELETE', token: alice.token })).status).toBe(200);
    expect((await rest(server.url, '/api/v1/me', { token: created.body.token })).status).toBe(401);
    expect((await rest(server.url, '/api/v1/settings/tokens', { method: 'POST', token: alice.token, headers: { 'Content-Type': 'application/json' }, body: '{"name":"  "}' })).status).toBe(400);
  });

  test('connections: add with a lichess token (never returned), change, refuse bad input, remove', async () => {
    const json = { 'Content-Type': 'application/json' };
    const put = (provider: string, body: unknown) => rest(server.url, `/api/v1/settings/connections/${provider}`, { method: 'PUT', token: alice.token, headers: json, body: JSON.stringify(body) });
    const added = await put('siteB', { account: 'AliceOnLichess', token: 'lip_secret123' });
    expect(added.status).toBe(200);
    expect(added.body).toMatchObject({ provider: 'siteB', account: 'AliceOnLichess', hasToken: true, status: 'never-synced' });
    expect(JSON.stringify((await rest(server.url, '/api/v1/settings/connections', { token: alice.token })).body)).not.toContain('lip_secret123');
    expect((await put('siteA', { account: 'x y' })).status).toBe(400);
    expect((await put('siteA', { account: 'alice', token: 'nope' })).status).toBe(400);
    expect((await put('fed', { account: '12' })).status).toBe(400);
    expect((await put('nowhere', { account: 'alice' })).status).toBe(400);
    expect((await put('siteB', { account: 'AliceOnLichess', token: null })).body.hasToken).toBe(false);
    expect((await rest(server.url, '/api/v1/settings/connections', { token: bob.token })).body.connections).toEqual([]);
    expect((await rest(server.url, '/api/v1/settings/connections/siteB', { method: 'DELETE', token: bob.token })).status).toBe(404);
    expect((await rest(server.url, '/api/v1/settings/connections/siteB', { method: 'DELETE', token: alice.token })).status).toBe(200);
    expect((await rest(server.url, '/api/v1/settings/connections', { token: alice.token })).body.connections).toEqual([]);
  });

  test('email status names the recipient and never a password; the Claude config carries a placeholder, not a token', async () => {
    const email = await rest(server.url, '/api/v1/settings/email', { token: alice.token });
    expect(email.body).toMatchObject({ configured: false, recipient: 'alice@example.test' });
    // The hint Settings shows is the one serve logs (one wording, issue 38), naming the two settings smtpSettingsFrom requires.
    expect(email.body.setup).toBe(SMTP_SETUP_HINT);
    expect(SMTP_SETUP_HINT).toMatch(/^set CFP_SMTP_HOST and CFP_SMTP_FROM /);
    const claude = await rest(server.url, '/api/v1/settings/claude-config', { token: alice.token });
    expect(claude.body.mcpUrl).toBe(`${server.url}/api/mcp`);
    expect(JSON.stringify(claude.body)).not.toMatch(/cfp_[A-Za-z0-9_-]{43}/);
    expect(claude.body.http.mcpServers['chess-footprint'].url).toBe(`${server.url}/api/mcp`);
    // The stdio entry is the one `claude-config` prints: absolute node, absolute bin, absolute data folder.
    const stdio = claude.body.stdio.mcpServers['chess-footprint'];
    expect(stdio.command).toBe(process.execPath);
    expect(stdio.args[0]).toMatch(/[\\/]bin[\\/]chess-footprint\.js$/);
    expect(stdio.args.slice(1, 3)).toEqual(['mcp', '--data-dir']);
    expect(isAbsolute(stdio.args[3])).toBe(true);
    // The token to create is the one claude-config issues (issue 38: the page said --name claude).
    expect(claude.body.tokenPlaceholder).toContain('token create --name claude-desktop --data-dir');
    expect(claude.body.claudeCode).toMatch(/^claude mcp add --transport stdio --scope user --env 'CFP_TOKEN=<a token from .*>' chess-footprint -- /);
  });
});

describe('the opening tree for the dashboard', () => {
  test('next moves with games and results from the owner’s games as a colour, owner-scoped; bad input is 400', async () => {
    // Three games with Alice as White; her tree is worked out by hand from them.
    const pgn = [
      ['2026.01.02', '1-0', '1. e4 e5 2. Nf3 Nc6 1-0'],
      ['2026.01.03', '0-1', '1. e4 c5 2. Nf3 d6 0-1'],
      ['2026.01.04', '1/2-1/2', '1. d4 d5 1/2-1/2'],
    ]
      .map(([date, result, moves], i) => `[Event "t${i}"]\n[Site "?"]\n[Date "${date}"]\n[White "Alice"]\n[Black "Opp${i}"]\n[Result "${result}"]\n\n${moves}\n`)
      .join('\n');
    expect((await importPgnLines(app.deps, alice.user, pgn.split('\n'), { as: 'white' })).imported).toBe(3);
    const start = await rest(server.url, '/api/v1/settings/openings/white', { token: alice.token });
    expect(start.status).toBe(200);
    expect(start.body.games).toBe(3);
    expect(start.body.nextMoves.map((m: { san: string; games: number; win: number; draw: number; loss: number; score: number }) => [m.san, m.games, m.win, m.draw, m.loss, m.score])).toEqual([
      ['e4', 2, 1, 0, 1, 50],
      ['d4', 1, 0, 1, 0, 50],
    ]);
    const e4 = await rest(server.url, '/api/v1/settings/openings/white?moves=e4', { token: alice.token });
    expect(e4.body.nextMoves.map((m: { san: string; lineMoves: string; score: number }) => [m.san, m.lineMoves, m.score])).toEqual([
      ['c5', 'e4 c5', 0],
      ['e5', 'e4 e5', 100],
    ]);
    expect((await rest(server.url, '/api/v1/settings/openings/white?moves=e4+e5+Nf3+Nc6', { token: alice.token })).body).toMatchObject({ games: 1, endedHere: 1, nextMoves: [] });
    expect((await rest(server.url, '/api/v1/settings/openings/black', { token: alice.token })).body.games).toBe(0);
    // Bob sees none of Alice's games.
    expect((await rest(server.url, '/api/v1/settings/openings/white', { token: bob.token })).body).toMatchObject({ games: 0, nextMoves: [] });
    for (const path of ['/api/v1/settings/openings/red', '/api/v1/settings/openings/white?depth=3', '/api/v1/settings/openings/white?moves=e4&moves=e5', '/api/v1/settings/openings/white?moves=%3Cscript%3E']) {
      const res = await rest(server.url, path, { token: alice.token });
      expect(res.status, path).toBe(400);
      expect(res.body.error).toBeTypeOf('string');
    }
    expect((await rest(server.url, '/api/v1/settings/openings/white')).status).toBe(401);
  });
});

describe('documents and pages', () => {
  test('the served OpenAPI document passes a real validator with every $ref resolved (issue 45 item 14)', async () => {
    const doc = (await rest(server.url, '/openapi.json')).body;
    // validate() resolves every internal reference; a `#/$defs/…` pointer (the document has no root $defs) fails it.
    const result = await validate(structuredClone(doc));
    expect(result.valid, JSON.stringify((result as { errors?: unknown }).errors ?? null).slice(0, 2000)).toBe(true);
    await expect(dereference(structuredClone(doc))).resolves.toBeTruthy();
    const text = JSON.stringify(doc);
    expect(text).not.toContain('"#/$defs/');
    expect(text).not.toContain('"$defs"');
    // The shapes the peers route shares are components of their own, and its result points at them.
    expect(doc.components.schemas.PeerFigure).toMatchObject({ type: 'object' });
    expect(JSON.stringify(doc.components.schemas.SettingsOpeningPeersResult)).toContain('"#/components/schemas/PeerFigure"');
  });

  test('the OpenAPI document lists the settings routes under their own tag; MCP still has the 29 tools', async () => {
    const doc = (await rest(server.url, '/openapi.json')).body;
    const settings = Object.entries(doc.paths).filter(([p]) => p.startsWith('/api/v1/settings'));
    expect(settings.map(([p]) => p).sort()).toEqual([
      '/api/v1/settings/claude-config',
      '/api/v1/settings/connections',
      '/api/v1/settings/connections/{provider}',
      '/api/v1/settings/email',
      '/api/v1/settings/openings/{colour}',
      '/api/v1/settings/openings/{colour}/peers',
      '/api/v1/settings/reviews',
      '/api/v1/settings/session',
      '/api/v1/settings/sessions',
      '/api/v1/settings/sessions/{id}',
      '/api/v1/settings/study/{id}',
      '/api/v1/settings/sync',
      '/api/v1/settings/tokens',
      '/api/v1/settings/tokens/{id}',
      '/api/v1/settings/workers',
    ]);
    for (const [, ops] of settings) for (const op of Object.values(ops as Record<string, Record<string, unknown>>)) {
      expect(op.tags).toEqual(['settings']);
      expect(op['x-mcp-tool']).toBeUndefined();
    }
    expect(Object.values(doc.paths).flatMap((ops) => Object.values(ops as object)).filter((op) => op['x-mcp-tool'])).toHaveLength(tools.length);
    expect(tools).toHaveLength(29);
  });

  test('`/` serves the dashboard to a browser with a strict CSP, and the JSON index to API clients', async () => {
    const html = await fetch(`${server.url}/`, { headers: { Accept: 'text/html,application/xhtml+xml,*/*;q=0.8' } });
    expect([200, 503]).toContain(html.status);
    expect(html.headers.get('content-security-policy')).toBe(CONTENT_SECURITY_POLICY);
    expect(CONTENT_SECURITY_POLICY).toContain("default-src 'self'");
    expect(CONTENT_SECURITY_POLICY).toContain("script-src 'self'");
    expect(CONTENT_SECURITY_POLICY).not.toContain('unsafe-inline');
    expect(html.headers.get('referrer-policy')).toBe('no-referrer');
    const json = await rest(server.url, '/');
    expect(json.body.name).toBe('chess-footprint');
  });
});

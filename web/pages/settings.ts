import { api } from '../api.js';
import { clear, copyText, h, table } from '../dom.js';
import { connectionStatus, providerName, when } from '../format.js';

const PROVIDERS = [
  ['siteA', 'Username'],
  ['siteB', 'Username'],
  ['fed', 'ECF rating code'],
] as const;

function errorLine(): HTMLElement {
  return h('p', { class: 'error', role: 'alert' });
}

async function tokensSection(): Promise<HTMLElement> {
  const box = h('section', {}, h('h2', {}, 'Personal access tokens'));
  const list = h('tbody', {});
  const created = h('div', {});
  const err = errorLine();
  const draw = async () => {
    const { tokens } = await api('/api/v1/settings/tokens');
    clear(list);
    for (const t of tokens) {
      const revoke = h('button', { type: 'button', class: 'danger', 'data-testid': 'token-revoke', disabled: Boolean(t.revokedAt) }, t.revokedAt ? 'Revoked' : 'Revoke');
      revoke.addEventListener('click', async () => {
        try {
          await api(`/api/v1/settings/tokens/${encodeURIComponent(t.id)}`, { method: 'DELETE' });
          await draw();
        } catch (e) {
          err.textContent = (e as Error).message;
        }
      });
      list.append(h('tr', { 'data-testid': 'token-row', 'data-id': t.id, class: t.revokedAt ? 'revoked' : '' }, h('td', { 'data-label': 'Name' }, t.name), h('td', { 'data-label': 'Created' }, when(t.createdAt)), h('td', { 'data-label': 'Last used' }, when(t.lastUsedAt)), h('td', { 'data-label': '' }, revoke)));
    }
  };
  const name = h('input', { name: 'name', required: true, maxlength: 100, placeholder: 'e.g. Claude Desktop', 'data-testid': 'token-name', 'aria-label': 'token name' });
  const form = h('form', { class: 'inline' }, name, h('button', { type: 'submit', 'data-testid': 'token-create' }, 'Create token'));
  form.addEventListener('submit', async (e) => {
    e.preventDefault();
    err.textContent = '';
    try {
      const t = await api('/api/v1/settings/tokens', { method: 'POST', body: { name: name.value } });
      name.value = '';
      const copy = h('button', { type: 'button' }, 'Copy');
      copy.addEventListener('click', () => void copyText(t.token, copy));
      clear(created);
      created.append(h('div', { class: 'notice' }, h('p', {}, `Token “${t.name}” — shown this once; copy it now:`), h('code', { 'data-testid': 'token-created', class: 'secret' }, t.token), ' ', copy));
      await draw();
    } catch (e) {
      err.textContent = (e as Error).message;
    }
  });
  await draw();
  box.append(form, err, created, h('table', { class: 'stack' }, h('thead', {}, h('tr', {}, h('th', {}, 'Name'), h('th', {}, 'Created'), h('th', {}, 'Last used'), h('th', {}, ''))), list));
  return box;
}

/** Review workers (issue 36): machines taking this account's reviews over lichess's fishnet protocol. Keys are made on the server's command line. */
async function workersSection(): Promise<HTMLElement> {
  const { workers } = await api('/api/v1/settings/workers');
  return h(
    'section',
    {},
    h('h2', {}, 'Review workers'),
    h(
      'p',
      {},
      'Machines that review your games over lichess’s fishnet protocol. On the server: ',
      h('code', {}, 'chess-footprint worker-key create --name NAME'),
      '; on the machine, with the key saved in a file only you can read: ',
      h('code', {}, 'chess-footprint worker --server URL --key-file FILE'),
      ' (or lichess’s fishnet client, which asks for the key on its first run). A worker sees the moves of the games it reviews, nothing else.',
    ),
    workers.length
      ? table(
          ['Machine', 'Status', 'Last contact', 'Reviews', 'Positions/s', 'Working on'],
          workers.map((w: any) => [w.name, w.revokedAt ? 'revoked' : w.connected ? 'connected' : 'idle', when(w.lastContactAt), String(w.jobsDone), w.positionsPerSecond === null ? '—' : String(w.positionsPerSecond), String(w.jobsHeld)]),
          (i) => ({ 'data-testid': 'worker-row', class: workers[i].revokedAt ? 'revoked' : '' }),
        )
      : h('p', { class: 'muted' }, 'No review workers yet.'),
  );
}

async function connectionsSection(): Promise<HTMLElement> {
  const box = h('section', {}, h('h2', {}, 'Connections'));
  const body = h('div', {});
  const err = errorLine();
  const draw = async () => {
    const { connections } = await api('/api/v1/settings/connections');
    clear(body);
    for (const [provider, label] of PROVIDERS) {
      const c = connections.find((x: any) => x.provider === provider);
      // Each field under its own visible label, so a placeholder never has to carry the field's name (it was cut on a phone).
      const account = h('input', { name: 'account', value: c?.account ?? '', 'data-testid': `connection-${provider}` });
      const token = provider === 'siteB' ? h('input', { name: 'token', type: 'password', autocomplete: 'off', placeholder: c?.hasToken ? 'stored: empty keeps it' : 'optional', 'data-testid': 'connection-siteB-token' }) : null;
      const save = h('button', { type: 'submit' }, c ? 'Save' : 'Connect');
      const remove = c ? h('button', { type: 'button', class: 'danger' }, 'Remove') : null;
      const form = h(
        'form',
        { class: 'connection' },
        h('strong', {}, providerName(provider)),
        h('label', { class: 'field' }, label, account),
        token ? h('label', { class: 'field' }, 'lichess API token', token) : null,
        h('span', { class: 'actions' }, save, remove),
        c ? h('span', { class: 'muted status', 'data-testid': `connection-status-${provider}` }, `${connectionStatus(c)} · last sync ${when(c.lastSyncedAt)}`) : h('span', { class: 'muted status' }, 'not connected'),
      );
      form.addEventListener('submit', async (e) => {
        e.preventDefault();
        err.textContent = '';
        try {
          const payload: Record<string, unknown> = { account: account.value };
          if (token && token.value.trim()) payload.token = token.value.trim();
          await api(`/api/v1/settings/connections/${provider}`, { method: 'PUT', body: payload });
          await draw();
        } catch (x) {
          err.textContent = (x as Error).message;
        }
      });
      remove?.addEventListener('click', async () => {
        if (!confirm(`Remove the ${providerName(provider)} connection? Games already synced stay.`)) return;
        try {
          await api(`/api/v1/settings/connections/${provider}`, { method: 'DELETE' });
          await draw();
        } catch (x) {
          err.textContent = (x as Error).message;
        }
      });
      body.append(form);
    }
  };
  await draw();
  box.append(body, err);
  return box;
}

async function sessionsSection(): Promise<HTMLElement> {
  const box = h('section', {}, h('h2', {}, 'Signed-in sessions'));
  const list = h('tbody', {});
  const draw = async () => {
    const { sessions } = await api('/api/v1/settings/sessions');
    clear(list);
    for (const s of sessions) {
      const end = h('button', { type: 'button', class: 'danger' }, s.current ? 'Sign out' : 'Revoke');
      end.addEventListener('click', async () => {
        await api(`/api/v1/settings/sessions/${encodeURIComponent(s.id)}`, { method: 'DELETE' });
        if (s.current) location.assign('/');
        else await draw();
      });
      list.append(h('tr', { 'data-testid': 'session-row' }, h('td', { 'data-label': 'Browser' }, s.current ? 'this browser' : s.userAgent ?? 'unknown browser'), h('td', { 'data-label': 'Signed in with' }, s.method === 'link' ? 'sign-in link' : 'token'), h('td', { 'data-label': 'Since' }, when(s.createdAt)), h('td', { 'data-label': 'Last used' }, when(s.lastUsedAt)), h('td', { 'data-label': '' }, end)));
    }
  };
  await draw();
  box.append(h('table', { class: 'stack' }, h('thead', {}, h('tr', {}, h('th', {}, 'Browser'), h('th', {}, 'Signed in with'), h('th', {}, 'Since'), h('th', {}, 'Last used'), h('th', {}, ''))), list));
  return box;
}

function pre(text: string): HTMLElement {
  const copy = h('button', { type: 'button' }, 'Copy');
  copy.addEventListener('click', () => void copyText(text, copy));
  return h('div', { class: 'snippet' }, h('pre', {}, text), copy);
}

export async function settingsPage(main: HTMLElement): Promise<void> {
  const [tokens, workers, connections, sessions, claude, email] = await Promise.all([
    tokensSection(),
    workersSection(),
    connectionsSection(),
    sessionsSection(),
    api('/api/v1/settings/claude-config'),
    api('/api/v1/settings/email'),
  ]);
  main.append(
    h('h1', {}, 'Settings'),
    tokens,
    workers,
    connections,
    h(
      'section',
      {},
      h('h2', {}, 'Claude Desktop'),
      h('p', {}, 'Add this to claude_desktop_config.json (or run ', h('code', {}, claude.writeCommand), '), replacing ', h('code', {}, claude.tokenPlaceholder), ' with a token created above.'),
      h('h3', {}, 'Claude Desktop (stdio)'),
      pre(JSON.stringify(claude.stdio, null, 2)),
      h('h3', {}, 'Claude Code'),
      pre(claude.claudeCode),
      h('h3', {}, `MCP clients that speak streamable HTTP: ${claude.mcpUrl}`),
      pre(JSON.stringify(claude.http, null, 2)),
    ),
    h(
      'section',
      {},
      h('h2', {}, 'Weekly report email'),
      email.configured
        ? h('p', {}, `Sent to ${email.recipient} through ${email.host}:${email.port} (${email.tls}) from ${email.from}${email.authenticated ? ', with a login' : ''}.`)
        : h('p', {}, `Not configured: ${email.setup} to email the weekly report to ${email.recipient}.`),
    ),
    sessions,
  );
}

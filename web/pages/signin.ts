import { api, ApiFailure } from '../api.js';
import { h } from '../dom.js';

/** Sign in with a pasted cfp_ token (the one-time link signs in by itself). */
export function signInPage(message: string | null, done: (account: { displayName: string; email: string }) => void): HTMLElement {
  const input = h('input', { type: 'password', id: 'token', name: 'token', autocomplete: 'off', placeholder: 'cfp_…', 'data-testid': 'signin-token', required: true });
  const status = h('p', { class: 'error', role: 'alert' }, message ?? '');
  const form = h(
    'form',
    { class: 'signin' },
    h('h1', {}, 'chess-footprint'),
    h('p', {}, 'Open the one-time sign-in link that ', h('code', {}, 'chess-footprint serve'), ' printed (', h('code', {}, 'chess-footprint sign-in-link'), ' prints a new one), or paste a personal access token.'),
    h('label', { for: 'token' }, 'Access token'),
    input,
    h('button', { type: 'submit', 'data-testid': 'signin-submit' }, 'Sign in'),
    status,
  );
  form.addEventListener('submit', async (e) => {
    e.preventDefault();
    status.textContent = '';
    try {
      const me = await api('/api/v1/settings/session', { method: 'POST', body: { token: input.value.trim() } });
      input.value = '';
      done(me.account);
    } catch (err) {
      status.textContent = err instanceof ApiFailure ? err.message : String(err);
    }
  });
  return h('div', { class: 'signin-wrap' }, form);
}

import { api, ApiFailure, whenSignedOut } from './api.js';
import { clear, h, link } from './dom.js';
import { coachingPage } from './pages/coaching.js';
import { studyGamePage, studyPage } from './pages/study.js';
import { gamePage } from './pages/game.js';
import { gamesPage } from './pages/games.js';
import { insightsPage } from './pages/insights.js';
import { libraryGamePage, libraryPage } from './pages/library.js';
import { openingsPage } from './pages/openings.js';
import { overviewPage } from './pages/overview.js';
import { prepPage } from './pages/prep.js';
import { settingsPage } from './pages/settings.js';
import { signInPage } from './pages/signin.js';
import { tournamentsPage } from './pages/tournaments.js';
import { isCurrent, navigate, nextGeneration, onNavigate } from './router.js';

export type Page = (main: HTMLElement, params: Record<string, string>, query: URLSearchParams) => Promise<void> | void;

const ROUTES: Array<[RegExp, Page, string]> = [
  [/^\/$/, overviewPage, 'Overview'],
  [/^\/games$/, gamesPage, 'Games'],
  [/^\/games\/(?<id>[^/]+)$/, gamePage, 'Game'],
  [/^\/openings$/, openingsPage, 'Openings'],
  [/^\/insights$/, insightsPage, 'Insights'],
  [/^\/study$/, studyPage, 'Study'],
  [/^\/study\/(?<id>[^/]+)$/, studyGamePage, 'Study game'],
  [/^\/coaching$/, coachingPage, 'Coaching'],
  [/^\/library$/, libraryPage, 'Library'],
  [/^\/library\/(?<slug>[^/]+)$/, libraryGamePage, 'Library game'],
  [/^\/tournaments$/, tournamentsPage, 'Tournaments'],
  [/^\/prep$/, prepPage, 'Prep'],
  [/^\/settings$/, settingsPage, 'Settings'],
];

/** What a page shows when its API answers 404 (an id that is not the owner's, or not there): a player's words, a way back. */
const MISSING: Record<string, [string, string, string]> = {
  Game: ['No game of yours at this address: it may have been deleted, or the link is mistyped.', '/games', 'Back to your games'],
  'Study game': ['No study game of yours at this address: it may have been deleted, or the link is mistyped.', '/study', 'Back to your study games'],
  'Library game': ['No library game at this address: the link may be mistyped.', '/library', 'Back to the library'],
};

function notFound(main: HTMLElement, text = 'No page at this address: the link may be mistyped, or the page has moved.', back = '/', backText = 'Back to the overview'): void {
  document.title = 'Not found · chess-footprint';
  clear(main);
  main.append(h('h1', {}, 'Not found'), h('p', { 'data-testid': 'not-found' }, text), h('p', {}, link(back, backText)));
}

const NAV: Array<[string, string]> = [
  ['/', 'Overview'],
  ['/games', 'Games'],
  ['/openings', 'Openings'],
  ['/insights', 'Insights'],
  ['/study', 'Study'],
  ['/coaching', 'Coaching'],
  ['/library', 'Library'],
  ['/tournaments', 'Tournaments'],
  ['/prep', 'Prep'],
  ['/settings', 'Settings'],
];

const root = document.getElementById('app')!;
let account: { displayName: string; email: string } | null = null;

async function signOut(): Promise<void> {
  await api('/api/v1/settings/session', { method: 'DELETE' }).catch(() => {});
  account = null;
  navigate('/', true);
}

function shell(main: HTMLElement): HTMLElement {
  const here = location.pathname;
  return h(
    'div',
    { class: 'shell' },
    h(
      'header',
      {},
      h('a', { href: '/', 'data-link': true, class: 'brand' }, 'chess-footprint'),
      h('nav', {}, ...NAV.map(([href, label]) => h('a', { href, 'data-link': true, class: (href === '/' ? here === '/' : here.startsWith(href)) ? 'active' : '' }, label))),
      h('span', { class: 'who' }, account?.displayName ?? ''),
      h('button', { type: 'button', class: 'link', 'data-testid': 'sign-out', onclick: () => void signOut() }, 'Sign out'),
    ),
    main,
  );
}

async function render(): Promise<void> {
  const g = nextGeneration();
  const query = new URLSearchParams(location.search);
  // A one-time sign-in link: exchange the code by POST, then take it out of the address bar.
  const code = query.get('code');
  if (code) {
    history.replaceState(null, '', location.pathname === '/' ? '/' : location.pathname);
    try {
      const me = await api('/api/v1/settings/session', { method: 'POST', body: { code } });
      account = me.account;
    } catch (err) {
      account = null;
      return renderSignIn(err instanceof ApiFailure ? err.message : String(err));
    }
  }
  if (!account) {
    try {
      account = (await api('/api/v1/settings/session')).account;
    } catch {
      return renderSignIn(null);
    }
  }
  if (!isCurrent(g)) return;
  const path = location.pathname.replace(/\/+$/, '') || '/';
  const main = h('main', { id: 'main' });
  clear(root);
  root.append(shell(main));
  // On a phone the tabs scroll sideways: bring the current one into view.
  const nav = root.querySelector('header nav') as HTMLElement | null;
  const active = nav?.querySelector('a.active') as HTMLElement | null;
  if (nav && active && nav.scrollWidth > nav.clientWidth) nav.scrollLeft = active.offsetLeft - nav.offsetLeft - (nav.clientWidth - active.offsetWidth) / 2;
  const route = ROUTES.find(([re]) => re.test(path));
  if (!route) return notFound(main);
  const [re, page, title] = route;
  document.title = `${title} · chess-footprint`;
  const params = (re.exec(path)!.groups ?? {}) as Record<string, string>;
  try {
    await page(main, params, new URLSearchParams(location.search));
  } catch (err) {
    if (!isCurrent(g)) return;
    if (err instanceof ApiFailure && err.status === 404 && MISSING[title]) return notFound(main, ...MISSING[title]);
    main.append(h('p', { class: 'error', role: 'alert' }, err instanceof Error ? err.message : String(err)));
  }
}

function renderSignIn(message: string | null): void {
  clear(root);
  document.title = 'Sign in · chess-footprint';
  root.append(
    signInPage(message, (me) => {
      account = me;
      navigate(location.pathname, true);
    }),
  );
}

whenSignedOut(() => {
  account = null;
  renderSignIn('You were signed out.');
});

// Client-side routing: same-origin links marked data-link.
document.addEventListener('click', (e) => {
  const a = (e.target as Element | null)?.closest?.('a[data-link]') as HTMLAnchorElement | null;
  if (!a || e.defaultPrevented || e.button !== 0 || e.metaKey || e.ctrlKey || e.shiftKey) return;
  e.preventDefault();
  navigate(a.getAttribute('href')!);
});
onNavigate(render);
window.addEventListener('popstate', () => void render());
void render();

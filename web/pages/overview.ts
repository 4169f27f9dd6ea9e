import { api } from '../api.js';
import { legend, lineChart, type Series } from '../charts.js';
import { clear, h, link, stamp, table } from '../dom.js';
import { connectionStatus, count, dayMonth, day, pct, pgnDate, providerName, rating, signed, timeClassName, wdl, WDL_HEADER, when } from '../format.js';

const RANGES = ['30d', '90d', '1y', 'all'] as const;

async function ratingBlock(range: string, width: number): Promise<HTMLElement> {
  const data = await api('/api/v1/me/ratings', { query: { range } });
  const series: Series[] = data.lines.map((l: any) => ({
    name: `${providerName(l.provider)} ${timeClassName(l.timeClass)}`,
    points: l.points.map((p: any) => ({ x: Date.parse(p.date), y: p.rating })),
  }));
  return h('div', {}, lineChart(series, { testid: 'rating-chart', label: `ratings, ${range}`, width }), legend(series));
}


/** A sync's outcome per source in words; a demo store's made-up connections are skipped, as `sync` says. */
function syncOutcome(results: any[], demo: Set<string>): string {
  const order = ['siteA', 'siteB', 'fed'];
  const skipped = results.filter((r) => !r.ok && demo.has(r.provider)).sort((a, b) => order.indexOf(a.provider) - order.indexOf(b.provider));
  const rest = results.filter((r) => !skipped.includes(r));
  const lines = rest.map((r) => `${providerName(r.provider)}: ${r.ok ? `${count(r.stored, 'new game')}` : `failed — ${r.error}`}`);
  if (skipped.length) lines.push(`skipped ${skipped.length === 1 ? 'the demo connection' : `${skipped.length} demo connections`} (${skipped.map((r) => providerName(r.provider)).join(', ')}): made-up accounts, never synced; connect your own in Settings`);
  return lines.join('; ');
}

function syncBlock(onDone: () => void): HTMLElement {
  const status = h('span', { class: 'muted', 'data-testid': 'sync-status', 'aria-live': 'polite' });
  const bar = h('progress', { max: 1, value: 0, class: 'hidden' });
  const button = h('button', { type: 'button', 'data-testid': 'sync-now' }, 'Sync now');
  const poll = async () => {
    if (!document.body.contains(status)) return;
    const run = await api('/api/v1/settings/sync');
    if (run.state === 'running') {
      const p = run.progress;
      bar.classList.remove('hidden');
      if (p?.total) {
        bar.max = p.total;
        bar.value = p.done ?? 0;
      } else bar.removeAttribute('value');
      status.textContent = p ? `${providerName(p.provider)}: ${p.phase} — ${p.fetched} fetched, ${p.stored} stored` : 'starting…';
      setTimeout(() => void poll().catch(() => {}), 700);
      return;
    }
    bar.classList.add('hidden');
    button.disabled = false;
    if (run.state === 'done') {
      const demo = new Set<string>(((await api('/api/v1/me')).connections as any[]).filter((c) => c.status === 'demo').map((c) => c.provider));
      status.textContent = run.results.length ? syncOutcome(run.results, demo) : 'nothing to sync: connect a source in Settings';
      status.classList.toggle('error', run.results.some((r: any) => !r.ok && !demo.has(r.provider)));
      status.setAttribute('data-state', 'done');
      onDone();
    }
  };
  button.addEventListener('click', async () => {
    button.disabled = true;
    status.removeAttribute('data-state');
    status.textContent = 'starting…';
    try {
      await api('/api/v1/settings/sync', { method: 'POST', body: {} });
    } catch (err) {
      status.textContent = (err as Error).message;
    }
    await poll();
  });
  return h('div', { class: 'sync' }, button, ' ', bar, ' ', status);
}

export async function overviewPage(main: HTMLElement): Promise<void> {
  const [profile, report, queue, reviewed] = await Promise.all([
    api('/api/v1/me'),
    api('/api/v1/me/report/latest').catch((e) => ({ error: e.message })),
    api('/api/v1/settings/reviews'),
    // Reviewed games as the games list counts them (shipped and source reviews too, not only this queue's jobs).
    api('/api/v1/me/games', { query: { reviewed: 'yes' } }).then((l) => l.total as number),
  ]);
  const connections = h('div', {});
  const drawConnections = async () => {
    const p = await api('/api/v1/me');
    clear(connections);
    connections.append(
      p.connections.length
        ? table(
            ['Source', 'Account', 'Status', 'Last sync'],
            p.connections.map((c: any) => [providerName(c.provider), c.account, connectionStatus(c), when(c.lastSyncedAt)]),
            undefined,
            true,
          )
        : h('p', {}, 'No sources connected yet: ', link('/settings', 'connect chess.com, lichess or the ECF'), '.'),
    );
  };
  await drawConnections();

  // The chart is drawn at the width it gets, so its labels keep their size on a phone.
  const chartWidth = () => main.clientWidth - 40;
  const chart = h('div', { class: 'chart-wrap' }, await ratingBlock('1y', chartWidth()));
  const rangeSelect = h('select', { 'aria-label': 'rating range', 'data-testid': 'rating-range' }, ...RANGES.map((r) => h('option', { value: r, selected: r === '1y' }, r)));
  rangeSelect.addEventListener('change', async () => {
    const next = await ratingBlock(rangeSelect.value, chartWidth());
    clear(chart);
    chart.append(next);
  });

  const weeks = await weekComparison();
  main.append(
    h('h1', {}, profile.displayName),
    h('p', { class: 'muted' }, `${profile.totals.games} games · member since ${day(profile.memberSince)} · last sync ${when(profile.lastSyncedAt)}`),
    h('section', {}, h('h2', {}, 'Sources'), connections, syncBlock(() => void drawConnections())),
    h('section', {}, h('div', { class: 'row' }, h('h2', {}, 'Ratings'), h('label', {}, 'Range ', rangeSelect)), chart),
    h('section', {}, h('h2', {}, 'This week and last'), weeks, weekly(report)),
    h('section', {}, h('h2', {}, 'Review queue'), reviewQueue(queue, reviewed)),
  );
}

const DAY = 86_400_000;
const iso = (t: number) => new Date(t).toISOString().slice(0, 10);

/** The report's week: Saturday 00:00 to Friday 24:00 UTC (get_weekly_report). The current one holds today. */
function currentWeek(now = Date.now()): { start: string; end: string; lastStart: string; lastEnd: string } {
  const today = Date.UTC(new Date(now).getUTCFullYear(), new Date(now).getUTCMonth(), new Date(now).getUTCDate());
  const start = today - ((new Date(today).getUTCDay() + 1) % 7) * DAY; // back to Saturday
  return { start: iso(start), end: iso(start + 6 * DAY), lastStart: iso(start - 7 * DAY), lastEnd: iso(start - DAY) };
}

/** Games and results of this week so far and of last week, counted by the games list itself. */
async function weekComparison(): Promise<HTMLElement> {
  const w = currentWeek();
  const count = async (from: string, to: string) => {
    const [win, draw, loss] = await Promise.all(['win', 'draw', 'loss'].map((result) => api('/api/v1/me/games', { query: { from, to, result } }).then((l) => l.total as number)));
    const games = win + draw + loss;
    return [String(games), wdl({ win, draw, loss }), games ? pct(((win + draw / 2) / games) * 100) : '—'];
  };
  const [now, last] = await Promise.all([count(w.start, w.end), count(w.lastStart, w.lastEnd)]);
  return h(
    'div',
    { 'data-testid': 'week-comparison' },
    table(['Week', 'Games', WDL_HEADER, 'Score'], [
      [`This week so far (from Sat ${dayMonth(w.start)})`, ...now],
      [`Last week (${dayMonth(w.lastStart)} – ${dayMonth(w.lastEnd)})`, ...last],
    ]),
  );
}

function weekly(report: any): HTMLElement {
  if (report.error) return h('p', { class: 'muted' }, report.error);
  const rows = Object.values(report.sections ?? {}).map((s: any) => [
    s.label,
    s.games,
    wdl(s.results),
    s.ratingLines.map((l: any) => `${timeClassName(l.timeClass)} ${rating(l.end)} (${signed(l.delta)})`).join(', ') || '—',
    s.bestWin ? h('span', {}, link(`/games/${encodeURIComponent(s.bestWin.gameId)}`, s.bestWin.opponent), ` (${s.bestWin.opponentRating ?? '?'})`) : '—',
  ]);
  // Reports are frozen when a week closes, so the latest is last week's (or older, if none was made since).
  const which = report.weekEnd === currentWeek().lastEnd ? 'Last week’s report' : `The latest report: the week ending ${dayMonth(report.weekEnd)}`;
  return h(
    'div',
    {},
    h('h3', {}, which, h('span', { class: 'muted' }, ` (${dayMonth(report.weekStart)} – ${dayMonth(report.weekEnd)} ${report.weekEnd.slice(0, 4)})`)),
    table(['Source', 'Games', WDL_HEADER, 'Ratings', 'Best win'], rows),
    report.puzzles ? h('p', {}, `Puzzles: ${report.puzzles.solved} solved of ${report.puzzles.attempts}`) : null,
  );
}

function reviewQueue(q: any, reviewed: number): HTMLElement {
  const name = (j: any) => {
    const who = j.subject ? `${j.subject.white} – ${j.subject.black}${j.subject.date ? `, ${pgnDate(j.subject.date)}` : ''}` : j.subjectKind === 'game' ? 'a deleted game' : 'a deleted study game';
    if (j.subjectKind === 'game' && j.subject) return link(`/games/${encodeURIComponent(j.subjectId)}`, who);
    return j.subjectKind === 'study' ? `${who} (study)` : who;
  };
  return h(
    'div',
    { 'data-testid': 'review-queue' },
    h('p', {}, link('/games?reviewed=yes', `${count(reviewed, 'game')} reviewed`), ` · ${q.queued} queued · ${q.running} running${q.failedRecently?.length ? ` · ${q.failedRecently.length} failed` : ''}`),
    q.active.length
      ? table(
          ['Game', 'Status', 'Reviewed by', 'Place in queue', 'Queued at'],
          [...q.active]
            .sort((a: any, b: any) => a.position - b.position)
            // A review worker's job shows how far it has got (its progress reports): "34 of 108 positions".
            .map((j: any) => [name(j), j.progress ? `${j.status} · ${j.progress.done} of ${j.progress.total} positions` : j.status, j.worker ?? '—', j.position, when(j.createdAt)]),
          undefined,
          true,
        )
      : null,
    // Failed reviews say why and what to do next (an abandoned one included), not only a count.
    q.failedRecently?.length
      ? table(
          ['Game', 'Failed', 'Why, and what next'],
          q.failedRecently.map((j: any) => [name(j), j.finishedAt ? when(j.finishedAt) : '—', j.note]),
        )
      : null,
  );
}

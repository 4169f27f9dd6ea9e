/**
 * One request at a time per site, whoever asks (docs/cli.md, "Syncing": "one request at a time per site"): the
 * sync and the scout of one site, and the syncs of several owners, take turns within a process instead
 * of each keeping its own queue and meeting on the site at once. Keyed by the app's store, as every
 * per-app runner is, so two apps in one process (the tests) never wait on each other.
 */
const turns = new WeakMap<object, Map<string, Promise<void>>>();

/** Runs `work` once every earlier turn at `site` has ended (fulfilled or not); resolves or rejects as `work` does. */
export function inSiteTurn<T>(app: object, site: string, work: () => Promise<T>): Promise<T> {
  let sites = turns.get(app);
  if (!sites) turns.set(app, (sites = new Map()));
  const mine = (sites.get(site) ?? Promise.resolve()).then(work);
  const ended = mine.then(
    () => undefined,
    () => undefined,
  );
  sites.set(site, ended);
  // The last turn out leaves no chain behind.
  void ended.then(() => {
    if (sites.get(site) === ended) sites.delete(site);
  });
  return mine;
}

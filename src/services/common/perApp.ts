import type { AppDeps } from '../../context.js';

/**
 * One long-lived instance per app (a scout runner, the peers' fetch runner), keyed by the app's store: every
 * ctx of one app (REST, MCP, the dashboard) holds the same store, so all of them share the one instance, and a
 * test app gets its own. `set` puts a test's instance (with injected waits) in its place; `forget` lets an instance
 * that stopped go, so a later app on the same store gets a fresh one. `make` gets the app's parts alone: the caller
 * may pass a call's ctx, whose user and caller must not live on in a process-long instance.
 */
export function perApp<T>(make: (deps: AppDeps) => T): {
  of(deps: AppDeps): T;
  set(deps: AppDeps, value: T): void;
  forget(store: AppDeps['store'], instance: T): void;
} {
  const instances = new WeakMap<AppDeps['store'], T>();
  return {
    of(deps) {
      let instance = instances.get(deps.store);
      if (instance === undefined) {
        instance = make({ store: deps.store, clock: deps.clock, config: deps.config, limiter: deps.limiter, runtime: deps.runtime });
        instances.set(deps.store, instance);
      }
      return instance;
    },
    set(deps, value) {
      instances.set(deps.store, value);
    },
    forget(store, instance) {
      if (instances.get(store) === instance) instances.delete(store);
    },
  };
}

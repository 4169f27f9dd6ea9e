import type { Config } from '../../config.js';
import type { PersonalCtx } from '../../context.js';
import { liveServe } from '../../store/liveServe.js';

/**
 * Base of public links: the configured public URL, else the address the server listens on (a server
 * bound to every interface, 0.0.0.0, is reached on loopback: 0.0.0.0 is not an address to open).
 */
export function publicBaseUrl(config: Pick<Config, 'publicBaseUrl' | 'host' | 'port'>): string {
  const host = config.host === '0.0.0.0' ? '127.0.0.1' : config.host;
  return (config.publicBaseUrl ?? `http://${host}:${config.port}`).replace(/\/+$/, '');
}

/**
 * Base of links in an answer: CFP_PUBLIC_URL when set, else the origin the request reached, else
 * (over stdio, which has none) the origin of a live `serve` on the same store, else host:port.
 */
export function linkBase(ctx: Pick<PersonalCtx, 'config' | 'caller'>): string {
  return (ctx.config.publicBaseUrl ?? ctx.caller.origin ?? liveServe(ctx.config.dataDir)?.origin ?? publicBaseUrl(ctx.config)).replace(/\/+$/, '');
}

/**
 * The dashboard's page at `path` (e.g. '/prep'), for an answer that must send the player there: what an
 * agent cannot do itself (declaring a repertoire) is asked of the player, on the page that does it.
 */
export function dashboardUrl(ctx: Pick<PersonalCtx, 'config' | 'caller'>, path: string): string {
  return `${linkBase(ctx)}${path}`;
}

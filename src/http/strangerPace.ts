import type { IncomingMessage, ServerResponse } from 'node:http';
import { sendRefusal, stopReading, type PreparedRefusal } from '../facade/http.js';

/**
 * How fast one address may be refused without a credential (issue 44 item 2). A refusal that costs the server
 * next to nothing still costs something (accepting the connection, parsing the head, the loopback or the
 * network), and a stranger who sends again as soon as it is refused sets that cost's rate itself: four clients
 * sending 1 MiB bodies to refusals of 0.2 ms each took an owner's `list_games` p99 from 0.2 ms to 2.5–3.7 ms
 * on 2 cores (`npm run bench -- unauth-flood`). So each address has a bucket of refusals answered at once; past
 * it, a stranger's refusal is the same answer sent after `delayMs`, its socket paused meanwhile (nothing of its
 * body is read: the sender's writes stall in the kernel's buffers) and closed after it. A client that waits for
 * its answer before sending again then sends one request per `delayMs`, whatever its speed. Only refusals of
 * callers without a live credential are counted and held: an owner's, or a worker's, requests from the same
 * address never wait. With the pacing, the flood's p99 was 1.2× the quiet one (0.21 against 0.18 ms).
 */
export interface StrangerPaceOptions {
  /** Refusals answered at once from one address before pacing starts. */
  burst: number;
  /** Refusals a second the bucket gains back. */
  refillPerSecond: number;
  /** How long a paced refusal is held before it is sent. */
  delayMs: number;
  /** Sockets held at once, across addresses: past it a paced stranger's connection is dropped unanswered. */
  maxHeld: number;
  /** Addresses remembered: the least recently refused is forgotten first. */
  maxAddresses: number;
  /** Milliseconds, monotonic (tests pass their own). */
  now: () => number;
}

/**
 * The defaults: a person whose client lost its token, or a dashboard tab left open after sign-out, makes a few
 * refused requests a minute and never waits; a client refused 20 times within seconds waits a second per
 * further refusal. 256 held sockets bound what pacing itself costs (a paused socket keeps its kernel buffers).
 */
export const DEFAULT_STRANGER_PACE: StrangerPaceOptions = {
  burst: 20,
  refillPerSecond: 1,
  delayMs: 1000,
  maxHeld: 256,
  maxAddresses: 10_000,
  now: () => performance.now(),
};

/** Sends a stranger's refusal, at once or paced. */
export type RefuseStranger = (req: IncomingMessage, res: ServerResponse, refusal: PreparedRefusal) => void;

/** One bucket per address; the Map's order is the order of last refusal (re-inserted on each). */
export function strangerPace(options: Partial<StrangerPaceOptions> = {}): RefuseStranger {
  const { burst, refillPerSecond, delayMs, maxHeld, maxAddresses, now } = { ...DEFAULT_STRANGER_PACE, ...options };
  const buckets = new Map<string, { tokens: number; at: number }>();
  let held = 0;

  return (req, res, refusal) => {
    const address = addressGroup(req.socket.remoteAddress ?? '');
    const t = now();
    const bucket = buckets.get(address) ?? { tokens: burst, at: t };
    buckets.delete(address);
    buckets.set(address, bucket);
    if (buckets.size > maxAddresses) buckets.delete(buckets.keys().next().value!);
    bucket.tokens = Math.min(burst, bucket.tokens + ((t - bucket.at) / 1000) * refillPerSecond);
    bucket.at = t;
    if (bucket.tokens >= 1) {
      bucket.tokens -= 1;
      return sendRefusal(req, res, refusal);
    }
    if (held >= maxHeld) return void req.socket.destroy();
    held += 1;
    stopReading(req, res);
    const socket = req.socket;
    const release = () => {
      clearTimeout(timer);
      held -= 1;
    };
    // A timer that keeps no process alive: a server closing destroys its sockets, and 'close' releases the hold.
    const timer = setTimeout(() => {
      socket.off('close', release);
      held -= 1;
      sendRefusal(req, res, refusal, true);
    }, delayMs).unref();
    socket.once('close', release);
  };
}

/**
 * The unit an address is counted in: an IPv4 address (IPv4-mapped IPv6 included) whole, an IPv6 address by its
 * /64, the prefix one subscriber is given (RFC 6177 section 3), so that a host cannot start afresh from each of
 * its own interface addresses.
 */
export function addressGroup(address: string): string {
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(address);
  if (mapped) return mapped[1];
  if (!address.includes(':')) return address;
  const [head, tail = ''] = address.split('::');
  const left = head ? head.split(':') : [];
  const right = address.includes('::') && tail ? tail.split(':') : [];
  const groups = address.includes('::') ? [...left, ...Array<string>(Math.max(0, 8 - left.length - right.length)).fill('0'), ...right] : left;
  return groups.slice(0, 4).map((g) => g.toLowerCase().replace(/^0+(?=.)/, '')).join(':') + '::/64';
}

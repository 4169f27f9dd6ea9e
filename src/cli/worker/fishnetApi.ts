import { AcquireResponse, type AnalysisSubmission } from '../../../schemas/fishnet.js';

/**
 * The client half of lichess's fishnet protocol (fishnet doc/protocol.md; the bodies are schemas/fishnet.ts):
 * acquire, submit (progress or whole), abort, key check. Statuses as fishnet reads them (src/api.rs): 202/200 work,
 * 204 none; 400, 401, 403, 406 mean "stop until updated or reconfigured"; 429 and anything the server or the
 * network fails with are worth trying again later.
 */

/** The server refused this client or its key (400/401/403/406): stop, as fishnet does, naming the server's reason. */
export class FishnetRejected extends Error {}

/** The server could not be reached or failed (network, 5xx, 429): try again after a back-off. */
export class FishnetUnavailable extends Error {
  constructor(
    message: string,
    /** 429: the server asked us to slow down (fishnet waits a minute more). */
    readonly tooMany = false,
  ) {
    super(message);
  }
}

/** What a submission came to. */
export type SubmitOutcome =
  | { kind: 'stored'; next: AcquireResponse | null }
  /** 404/409/400: not this key's job any more (lease ran out, stored already) or refused as malformed: nothing stored. */
  | { kind: 'refused'; status: number; reason: string };

/**
 * The protocol's endpoint from `--server`: a chess-footprint server's address (`http://host:3000`) gets
 * `/fishnet` added; an address already ending in `/fishnet` (as stock fishnet's `--endpoint` takes it) is kept.
 * Null when it is not an http(s) URL.
 */
export function fishnetEndpoint(server: string): string | null {
  let url: URL;
  try {
    url = new URL(server);
  } catch {
    return null;
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') return null;
  const path = url.pathname.replace(/\/+$/, '');
  url.pathname = path.endsWith('/fishnet') ? path : `${path}/fishnet`;
  url.search = '';
  url.hash = '';
  return url.toString();
}

/** Reads an error body's `{error}` (ours) or its text, shortened to one line. */
async function reasonOf(res: Response): Promise<string> {
  const text = (await res.text().catch(() => '')).trim();
  let said = text;
  try {
    const parsed = JSON.parse(text) as { error?: unknown };
    if (typeof parsed?.error === 'string') said = parsed.error;
  } catch {
    // Not JSON: the text itself.
  }
  return `${res.status}${said ? `: ${said.replace(/\s+/g, ' ').slice(0, 300)}` : ''}`;
}

export class FishnetApi {
  constructor(
    private readonly endpoint: string,
    private readonly key: string,
    private readonly userAgent: string,
    /** Per request (fishnet's client gives each 30 s). */
    private readonly timeoutMs = 30_000,
  ) {}

  private async send(method: 'GET' | 'POST', path: string, body?: unknown): Promise<Response> {
    try {
      return await fetch(`${this.endpoint}${path}`, {
        method,
        headers: {
          authorization: `Bearer ${this.key}`,
          'user-agent': this.userAgent,
          ...(body === undefined ? {} : { 'content-type': 'application/json' }),
        },
        body: body === undefined ? undefined : JSON.stringify(body),
        signal: AbortSignal.timeout(this.timeoutMs),
      });
    } catch (err) {
      const cause = (err as { cause?: { code?: string } }).cause?.code;
      throw new FishnetUnavailable(`${this.endpoint}${path}: ${cause ?? (err instanceof Error ? err.message : String(err))}`);
    }
  }

  /** Fails on the statuses every endpoint shares: refusals stop the worker, the rest are retried. */
  private async common(res: Response): Promise<void> {
    if ([400, 401, 403, 406].includes(res.status)) throw new FishnetRejected(`the server refused this worker (${await reasonOf(res)})`);
    if (res.status === 429) throw new FishnetUnavailable(`the server asks to slow down (${await reasonOf(res)})`, true);
    if (res.status >= 500) throw new FishnetUnavailable(`the server failed (${await reasonOf(res)})`);
  }

  /** A job's body, checked against the protocol's declaration: a job this client cannot read is the server's fault. */
  private async job(res: Response): Promise<AcquireResponse> {
    const parsed = AcquireResponse.safeParse(await res.json().catch(() => undefined));
    if (!parsed.success) throw new FishnetRejected(`the server sent a job this worker cannot read: ${parsed.error.issues[0]?.path.join('.') || 'body'} ${parsed.error.issues[0]?.message ?? ''}`);
    return parsed.data;
  }

  /** GET /fishnet/key: true for a good key (200/204), false for an unknown or revoked one (401/403). */
  async checkKey(): Promise<boolean> {
    const res = await this.send('GET', '/key');
    if (res.status === 200 || res.status === 204) return true;
    if (res.status === 401 || res.status === 403) return false;
    await this.common(res);
    throw new FishnetUnavailable(`unexpected answer to the key check (${await reasonOf(res)})`);
  }

  /** POST /fishnet/acquire: a job, or null when there is none (204). */
  async acquire(): Promise<AcquireResponse | null> {
    const res = await this.send('POST', '/acquire', {});
    if (res.status === 204) return null;
    if (res.status === 202 || res.status === 200) return this.job(res);
    await this.common(res);
    throw new FishnetUnavailable(`unexpected answer to acquire (${await reasonOf(res)})`);
  }

  /**
   * POST /fishnet/analysis/{id}. A progress report (entries still pending are null) and a last submission
   * when stopping go with `stop=true` (take no next job); a whole analysis otherwise may come back with the next job (202).
   */
  async submit(id: string, body: AnalysisSubmission, stop: boolean): Promise<SubmitOutcome> {
    const res = await this.send('POST', `/analysis/${encodeURIComponent(id)}${stop ? '?stop=true' : ''}`, body);
    if (res.status === 204) return { kind: 'stored', next: null };
    if (res.status === 202 || res.status === 200) return { kind: 'stored', next: await this.job(res) };
    // 400 is "update required" for acquire, but for a submission it is this analysis refused: the worker carries on.
    if (res.status === 404 || res.status === 409 || res.status === 400) return { kind: 'refused', status: res.status, reason: await reasonOf(res) };
    await this.common(res);
    throw new FishnetUnavailable(`unexpected answer to a submission (${await reasonOf(res)})`);
  }

  /**
   * POST /fishnet/leave: chess-footprint's own, not lichess's (a stock server answers 404, which is fine): this
   * worker is stopping, so its owner sees it gone at once (issue 45 item 6).
   */
  async leave(): Promise<void> {
    const res = await this.send('POST', '/leave', {});
    await res.body?.cancel();
  }

  /** POST /fishnet/abort/{id}: give the job back at once (204; 404 where the server does not support it). */
  async abort(id: string): Promise<void> {
    const res = await this.send('POST', `/abort/${encodeURIComponent(id)}`, {});
    await res.body?.cancel();
  }
}

// The dashboard is a client of the REST API (the 29 tools) and the settings API. The session
// cookie is HttpOnly: scripts never see it, the browser sends it to this origin only.

export class ApiFailure extends Error {
  constructor(
    readonly status: number,
    message: string,
  ) {
    super(message);
  }
}

let onSignedOut: () => void = () => {};
export function whenSignedOut(fn: () => void): void {
  onSignedOut = fn;
}

export async function api<T = any>(path: string, opts: { method?: string; body?: unknown; query?: Record<string, string | number | boolean | undefined | null> } = {}): Promise<T> {
  const url = new URL(path, location.origin);
  for (const [k, v] of Object.entries(opts.query ?? {})) if (v !== undefined && v !== null && v !== '') url.searchParams.set(k, String(v));
  const res = await fetch(url, {
    method: opts.method ?? 'GET',
    credentials: 'same-origin',
    headers: opts.body === undefined ? {} : { 'Content-Type': 'application/json' },
    body: opts.body === undefined ? undefined : JSON.stringify(opts.body),
  });
  const text = await res.text();
  let data: any = null;
  try {
    data = text ? JSON.parse(text) : null;
  } catch {
    data = { error: text };
  }
  if (res.status === 401 && !path.startsWith('/api/v1/settings/session')) onSignedOut();
  if (!res.ok && res.status !== 202) throw new ApiFailure(res.status, data?.error ?? `HTTP ${res.status}`);
  return data as T;
}

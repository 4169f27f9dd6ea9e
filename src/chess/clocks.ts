/** Time controls and clock readings. */

export interface TimeControlInfo {
  raw: string;
  baseSeconds: number | null;
  incrementSeconds: number | null;
}

/**
 * Parses a PGN TimeControl value: "300+2" → base 300 s, increment 2 s; "600" → 600, 0;
 * "1/259200" (daily, chess.com) and "-" or "?" → no base. Multi-stage controls
 * ("40/5400+30:1800+30") take the first stage.
 */
export function parseTimeControl(raw: string | null | undefined): TimeControlInfo | null {
  if (!raw) return null;
  const first = raw.trim().split(':')[0];
  const m = /^(?:(\d+)\/)?(\d+)(?:\+(\d+))?$/.exec(first);
  if (!m || (m[1] && m[1] === '1')) return { raw, baseSeconds: null, incrementSeconds: null };
  return { raw, baseSeconds: Number(m[2]), incrementSeconds: m[3] ? Number(m[3]) : 0 };
}

/**
 * The clock readings after each ply as stored (a JSON array of seconds, from the PGN's [%clk]
 * comments or the source's clock list), or null when there are none: a reading that is not a finite
 * number is null in its place, and a list without a single reading counts as no clocks.
 */
export function parseClocks(raw: string | null): Array<number | null> | null {
  if (!raw) return null;
  try {
    const v: unknown = JSON.parse(raw);
    if (!Array.isArray(v)) return null;
    const clocks = v.map((c) => (typeof c === 'number' && Number.isFinite(c) ? c : null));
    return clocks.some((c) => c !== null) ? clocks : null;
  } catch {
    return null;
  }
}

export interface PlyClock {
  clockSecondsBefore: number | null;
  clockSecondsAfter: number | null;
  timeSpentSeconds: number | null;
}

/**
 * Clock figures of ply `ply` (1-based) from the readings after each ply. The mover's clock before
 * a move is their reading after their previous move, or the base time for their first move.
 * Time spent = before − after + increment (the increment is added after the move).
 */
export function plyClock(clocks: ReadonlyArray<number | null> | null, ply: number, tc: TimeControlInfo | null): PlyClock {
  if (!clocks || clocks.every((c) => c === null)) return { clockSecondsBefore: null, clockSecondsAfter: null, timeSpentSeconds: null };
  const after = clocks[ply - 1] ?? null;
  const before = ply <= 2 ? (tc?.baseSeconds ?? null) : (clocks[ply - 3] ?? null);
  if (after === null) return { clockSecondsBefore: before, clockSecondsAfter: null, timeSpentSeconds: null };
  const spent = before === null ? null : Math.max(0, Math.round((before - after + (tc?.incrementSeconds ?? 0)) * 10) / 10);
  return { clockSecondsBefore: before, clockSecondsAfter: after, timeSpentSeconds: spent };
}

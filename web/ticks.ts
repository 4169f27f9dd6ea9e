// Axis ticks a person can read: ratings in steps of 25, 50, 100, … and dates at month starts (or
// week starts when the range holds fewer than two months). Pure, so the tests check them directly.

const STEPS = [25, 50, 100, 200, 250, 500, 1000];

/** Round tick values covering [min, max] with at most `most` ticks; the axis runs from the first to the last. */
export function valueTicks(min: number, max: number, most = 7): number[] {
  const step = STEPS.find((s) => Math.ceil(max / s) - Math.floor(min / s) + 1 <= most) ?? STEPS[STEPS.length - 1];
  let lo = Math.floor(min / step) * step;
  let hi = Math.ceil(max / step) * step;
  if (lo === hi) [lo, hi] = [lo - step, hi + step];
  const out: number[] = [];
  for (let v = lo; v <= hi; v += step) out.push(v);
  return out;
}

const MONTHS = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];
const DAY = 86_400_000;

/** Tick times (epoch ms, UTC) in [from, to]: month starts (every 1, 2, 3, 6 or 12 months, at most `most`), else Mondays. */
export function timeTicks(from: number, to: number, most = 6): Array<{ t: number; label: string }> {
  const start = new Date(from);
  const months: number[] = [];
  for (let y = start.getUTCFullYear(), m = start.getUTCMonth() + 1; ; m++) {
    const t = Date.UTC(y, m, 1);
    if (t > to) break;
    months.push(t);
  }
  if (months.length >= 2) {
    const every = [1, 2, 3, 6, 12, 24, 60].find((k) => Math.ceil(months.length / k) <= most) ?? 120;
    const chosen = months.filter((t) => new Date(t).getUTCMonth() % Math.min(every, 12) === 0 && (every <= 12 || new Date(t).getUTCFullYear() % (every / 12) === 0));
    const ticks = chosen.length >= 2 ? chosen : months.filter((_, i) => i % every === 0);
    return ticks.map((t) => {
      const d = new Date(t);
      return { t, label: d.getUTCMonth() === 0 || every >= 12 ? String(d.getUTCFullYear()) : MONTHS[d.getUTCMonth()] };
    });
  }
  // Mondays (UTC), thinned to at most `most`.
  const first = Date.UTC(start.getUTCFullYear(), start.getUTCMonth(), start.getUTCDate()) + DAY * ((8 - start.getUTCDay()) % 7);
  const mondays: number[] = [];
  for (let t = first; t <= to; t += 7 * DAY) if (t >= from) mondays.push(t);
  const every = Math.max(1, Math.ceil(mondays.length / most));
  return mondays.filter((_, i) => i % every === 0).map((t) => ({ t, label: `${new Date(t).getUTCDate()} ${MONTHS[new Date(t).getUTCMonth()]}` }));
}

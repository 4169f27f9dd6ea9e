/** A small seeded PRNG (mulberry32): demo data is the same for the same seed on every machine. */
export function seededRandom(seed: number) {
  let a = seed >>> 0;
  const next = () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  return {
    next,
    int: (min: number, max: number) => min + Math.floor(next() * (max - min + 1)),
    pick: <T>(xs: readonly T[]): T => xs[Math.floor(next() * xs.length)],
    /** One of `xs`, each as likely as its weight. */
    weighted: <T extends { weight: number }>(xs: readonly T[]): T => {
      let r = next() * xs.reduce((s, x) => s + x.weight, 0);
      return xs.find((x) => (r -= x.weight) <= 0) ?? xs[xs.length - 1];
    },
    chance: (p: number) => next() < p,
    normal: (mean: number, sd: number) => {
      const u = Math.max(next(), 1e-12);
      return mean + sd * Math.sqrt(-2 * Math.log(u)) * Math.cos(2 * Math.PI * next());
    },
  };
}
export type Rng = ReturnType<typeof seededRandom>;

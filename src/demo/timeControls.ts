/** Time controls the demo draws from, per raw time class (base seconds, increment seconds). */
export const DEMO_TIME_CONTROLS = {
  bullet: [{ base: 60, inc: 0 }, { base: 120, inc: 1 }],
  blitz: [{ base: 180, inc: 0 }, { base: 180, inc: 2 }, { base: 300, inc: 0 }],
  rapid: [{ base: 600, inc: 0 }, { base: 900, inc: 10 }],
} as const;
export type OnlineClass = keyof typeof DEMO_TIME_CONTROLS;

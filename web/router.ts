/**
 * Client-side navigation, below the pages and main.ts: pages navigate (and check that their load is
 * still the current one) through here, and main.ts hands in the render that draws a route, so no page
 * imports the module that imports it.
 */
let render: () => Promise<void> = async () => {};
// Each navigation gets a number; a page that finishes loading after the next navigation is dropped.
let generation = 0;
export const isCurrent = (g: number) => g === generation;
export const currentGeneration = () => generation;
/** Numbers a new navigation (main.ts's render, once per navigation). */
export const nextGeneration = () => ++generation;

/** main.ts: what draws the current address. */
export function onNavigate(draw: () => Promise<void>): void {
  render = draw;
}

export function navigate(path: string, replace = false): void {
  if (replace) history.replaceState(null, '', path);
  else history.pushState(null, '', path);
  void render();
}

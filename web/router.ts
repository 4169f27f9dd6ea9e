// Client-side navigation, apart from main.ts so pages can navigate without importing the app
// that imports them. main.ts registers how a path is rendered.

let render: () => Promise<void> = async () => {};
// Each navigation gets a number; a page that finishes loading after the next navigation is dropped.
let generation = 0;

export function onNavigate(fn: () => Promise<void>): void {
  render = fn;
}

/** Starts a new navigation and returns its number. */
export const nextGeneration = () => ++generation;
export const isCurrent = (g: number) => g === generation;
export const currentGeneration = () => generation;

export function navigate(path: string, replace = false): void {
  if (replace) history.replaceState(null, '', path);
  else history.pushState(null, '', path);
  void render();
}

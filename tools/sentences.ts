/** Abbreviations whose full stop does not end a sentence. */
const ABBREVIATIONS = /(?:^|[\s(])(?:e\.g|i\.e|etc|vs|cf|approx|no)\.$/i;

/**
 * The first sentence of a description: the one-line purpose. A full stop inside brackets or
 * after an abbreviation ("(e.g. an over-the-board game)") does not end it.
 */
export function oneLine(text: string): string {
  let depth = 0;
  for (let i = 0; i < text.length; i += 1) {
    const c = text[i];
    if (c === '(' || c === '[') depth += 1;
    else if ((c === ')' || c === ']') && depth > 0) depth -= 1;
    else if ((c === '.' || c === '!' || c === '?') && depth === 0 && (i + 1 === text.length || /\s/.test(text[i + 1]))) {
      if (c === '.' && ABBREVIATIONS.test(text.slice(0, i + 1))) continue;
      return text.slice(0, i + 1).trim();
    }
  }
  return text.trim();
}

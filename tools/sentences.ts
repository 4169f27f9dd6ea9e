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

/**
 * A description cut to what the thing is, for a listing that must stay small (issue 15: the MCP
 * tools/list): the first sentence; when that is longer than `max` characters, its leading clauses up
 * to the last `;` outside brackets that fits, else the whole words that fit (never ending inside an
 * opened bracket) and an ellipsis, `max` characters in all. A first sentence of `max` characters or fewer
 * comes back whole.
 */
export function terse(text: string, max: number): string {
  const first = oneLine(text);
  if (first.length <= max) return first;
  let depth = 0;
  let clauseEnd = -1;
  let wordEnd = -1;
  let openAt = -1;
  for (let i = 0; i < max; i += 1) {
    const c = first[i];
    if (c === '(' || c === '[') {
      if (depth === 0) openAt = i;
      depth += 1;
    } else if ((c === ')' || c === ']') && depth > 0) depth -= 1;
    else if (c === ';' && depth === 0) clauseEnd = i;
    // A word ends before a space; a cut there must not leave a bracket open, and leaves room for the ellipsis.
    if (first[i + 1] !== ' ' || i + 1 >= max) continue;
    if (depth === 0) wordEnd = i + 1;
    else if (openAt > 0) wordEnd = Math.max(wordEnd, openAt);
  }
  // A clause too short to name the thing (under a third of the budget) is not worth the cut.
  if (clauseEnd >= max / 3) return first.slice(0, clauseEnd).trim();
  const end = wordEnd > 0 ? wordEnd : Math.max(1, max - 1);
  return `${first.slice(0, end).replace(/[\s,:;(—–-]+$/, '')}…`;
}

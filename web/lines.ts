// The lines of a PGN with variations, for showing a repertoire line by line. A small reader of
// movetext only (headers, comments, NAGs and move numbers skipped; each variation a line of its
// own); the server checks every move when the repertoire is declared (src/chess/repertoire.ts).

const RESULT = /^(1-0|0-1|1\/2-1\/2|\*)$/;

function tokens(text: string): string[] {
  const body = text
    .replace(/^\s*\[[^\]]*\]\s*$/gm, ' ')
    .replace(/\{[^}]*\}/g, ' ')
    .replace(/;[^\n]*/g, ' ')
    .replace(/\$\d+/g, ' ');
  return body
    .replace(/([()])/g, ' $1 ')
    .split(/\s+/)
    .map((t) => t.replace(/^\d+\.(\.\.)?/, '').replace(/^…/, '').replace(/[!?]+$/, ''))
    .filter(Boolean);
}

/** Every line of the movetext (SAN from move 1), mainlines and variations, in the order written. */
export function pgnLines(text: string): string[][] {
  const toks = tokens(text);
  const lines: string[][] = [];
  let i = 0;
  const walk = (prefix: string[]): void => {
    const line = [...prefix];
    let ended = false;
    while (i < toks.length) {
      const t = toks[i++];
      if (t === '(') walk(line.slice(0, -1));
      else if (t === ')') break;
      else if (RESULT.test(t)) {
        if (line.length) lines.push([...line]);
        line.length = 0;
        ended = true;
        if (prefix.length) break;
      } else {
        line.push(t);
        ended = false;
      }
    }
    if (!ended && line.length) lines.push(line);
  };
  walk([]);
  // A line that is the start of another adds nothing to show.
  const keys = lines.map((l) => l.join(' '));
  return lines.filter((l, n) => !keys.some((k, m) => m !== n && k.length > keys[n].length && k.startsWith(`${keys[n]} `)));
}

/** A repertoire's lines: typed-in lines (and the demo's) are one a row; a PGN or study game is read as movetext. */
export function repertoireLines(source: string, text: string): string[][] {
  if (source === 'lines' || source === 'demo') return text.split('\n').map((row) => tokens(row)).filter((l) => l.length);
  return pgnLines(text);
}

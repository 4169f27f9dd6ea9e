/**
 * Splits a byte stream into lines without ever holding more than one partial line, so a
 * 500,000-game export costs the memory of one game. A trailing line without "\n" is still yielded.
 */
export async function* readLines(body: ReadableStream<Uint8Array>): AsyncGenerator<string> {
  const decoder = new TextDecoder();
  let rest = '';
  for await (const chunk of body as unknown as AsyncIterable<Uint8Array>) {
    rest += decoder.decode(chunk, { stream: true });
    let nl = rest.indexOf('\n');
    while (nl >= 0) {
      const line = rest.slice(0, nl).trim();
      rest = rest.slice(nl + 1);
      if (line) yield line;
      nl = rest.indexOf('\n');
    }
  }
  rest += decoder.decode();
  if (rest.trim()) yield rest.trim();
}

/** Statuses a tool documents besides 200 (spec sections 4 and 7). */
export type DocumentedStatus = 202 | 400 | 401 | 404 | 409 | 413 | 415 | 429 | 502 | 503 | 504;

/**
 * One tool description, two readers. The REST reader sees HTTP statuses ("answers 404"); an MCP
 * client never sees a status, only a result or a tool error (`isError: true` carrying the same
 * `{error}` message), so the MCP text names those outcomes instead. Both are rendered from one
 * source with the `say` template below, so they cannot drift apart.
 */
export type Outcome = 200 | DocumentedStatus;

export interface ToolText {
  /** What tools/list and the server card show. */
  mcp: string;
  /** What the OpenAPI operation and llms.txt show. */
  http: string;
}

/** How each outcome reads over MCP. */
const MCP_WORDS: Record<Outcome, string> = {
  200: 'a result',
  202: 'a result',
  400: 'a tool error',
  401: 'a tool error',
  404: 'a not-found tool error',
  409: 'a conflict tool error',
  413: 'a tool error',
  415: 'a tool error',
  429: 'a rate-limit tool error',
  502: 'a tool error',
  503: 'a tool error',
  504: 'a tool error',
};

/** An aside that only one surface needs, e.g. `${onlyHttp(' (HTTP 202)')}`. */
export interface SurfaceAside {
  mcp: string;
  http: string;
}

export const onlyHttp = (text: string): SurfaceAside => ({ mcp: '', http: text });
export const onlyMcp = (text: string): SurfaceAside => ({ mcp: text, http: '' });

/**
 * `` say`an id that is not the owner's answers ${404}` `` renders "answers 404" for REST and
 * "answers a not-found tool error" for MCP. Interpolate statuses or surface asides only.
 */
export function say(strings: TemplateStringsArray, ...parts: Array<Outcome | SurfaceAside>): ToolText {
  let mcp = strings[0];
  let http = strings[0];
  parts.forEach((part, i) => {
    if (typeof part === 'number') {
      mcp += MCP_WORDS[part];
      http += String(part);
    } else {
      mcp += part.mcp;
      http += part.http;
    }
    mcp += strings[i + 1];
    http += strings[i + 1];
  });
  return { mcp, http };
}

/** Joins described parts with spaces, keeping the two renderings in step. */
export function joinText(parts: ReadonlyArray<string | ToolText>): ToolText {
  return {
    mcp: parts.map((p) => (typeof p === 'string' ? p : p.mcp)).join(' '),
    http: parts.map((p) => (typeof p === 'string' ? p : p.http)).join(' '),
  };
}

/** Both renderings of a description given as a plain string or a ToolText. */
export function renderings(text: string | ToolText): ToolText {
  return typeof text === 'string' ? { mcp: text, http: text } : text;
}

/**
 * The two analysis tools share the move-classification and phase rules. Over MCP they are stated
 * once, in the server instructions (tools/instructions.ts), and the tools point there; the
 * OpenAPI has no instructions, so its operations carry the rules themselves.
 */
export const RULES_IN_INSTRUCTIONS =
  'Classifications and phases follow the rules stated once in the server instructions ("Move classifications", "Phases").';

/**
 * An HTTP status used as one, in a text meant for MCP (a test keeps them out): after a verb or
 * article ("answers 404", "is a 409"), before what it means ("409 means", "202 queued", "the 400
 * error") or in an error list ("(409 if", "Errors: 400"). Plain numbers ("up to 200 rows",
 * "400 × (wins − losses)", "±500 cp") are not statuses.
 */
const STATUS = '(?:200|202|400|401|403|404|409|413|415|429|500|502|503|504)';
export const HTTP_STATUS_PATTERN = new RegExp(
  [
    `\\b(?:answers?|returns?|is|are|a|an|the|HTTP|status|Errors:)\\s+${STATUS}\\b`,
    `\\b${STATUS}\\s+(?:error|queued|complete|means|says|saying|naming|when|if|until|beyond|otherwise|with|bad|target|the|\\+)\\b`,
    `\\(${STATUS}\\b`,
    `\\b${STATUS}:`,
  ].join('|'),
);

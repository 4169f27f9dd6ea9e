import { pathParams, type AnyTool } from '../../tools/defineTool.js';
import { inputJsonSchema, scalarType } from '../../tools/jsonSchema.js';
import { routePattern } from './pathMatch.js';

/** One tool's REST route, worked out once from the registry when the server starts. */
export interface RestRoute {
  tool: AnyTool;
  /** The path's `{name}` segments, in order. */
  params: readonly string[];
  /** The path parameters of a request path (still percent-encoded), or null when it is not this route's. */
  match(path: string): string[] | null;
  /** The query's fields converted to the types the tool declares, or a message naming what is wrong. */
  coerceQuery(query: Record<string, unknown>): Record<string, unknown> | string;
}

/**
 * Query strings carry text; the tool's schema says which fields are numbers or booleans.
 * Values that do not convert are left as text so validation names the field.
 */
function queryCoercer(tool: AnyTool): RestRoute['coerceQuery'] {
  const props = inputJsonSchema(tool).properties ?? {};
  const path = pathParams(tool.rest.path);
  const accepted = Object.keys(props).filter((k) => !path.includes(k));
  const types = new Map(accepted.map((k) => [k, scalarType(props[k])]));
  return (query) => {
    // A typo (?provdier=siteA) must not silently widen the answer: name it, and what is accepted.
    const unknown = Object.keys(query).filter((k) => !types.has(k));
    if (unknown.length) {
      const list = accepted.length ? `accepted: ${accepted.join(', ')}` : 'this endpoint takes no query parameters';
      return `unknown query parameter${unknown.length > 1 ? 's' : ''} ${unknown.map((k) => `"${k}"`).join(', ')}; ${list}`;
    }
    const out: Record<string, unknown> = {};
    for (const [key, raw] of Object.entries(query)) {
      if (Array.isArray(raw)) return `${key}: give it once (comma-separate list values)`;
      if (typeof raw !== 'string') return `${key}: unsupported query syntax`;
      const type = types.get(key);
      if ((type === 'integer' || type === 'number') && /^-?\d+(\.\d+)?$/.test(raw.trim())) out[key] = Number(raw);
      else if (type === 'boolean' && (raw === 'true' || raw === 'false')) out[key] = raw === 'true';
      else out[key] = raw;
    }
    return out;
  };
}

export function restRoute(tool: AnyTool): RestRoute {
  const pattern = routePattern(tool.rest.path);
  return {
    tool,
    params: pathParams(tool.rest.path),
    match: (path) => {
      const m = pattern.exec(path);
      return m ? m.slice(1) : null;
    },
    coerceQuery: queryCoercer(tool),
  };
}

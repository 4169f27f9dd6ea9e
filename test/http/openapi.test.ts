import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { validate } from '@readme/openapi-parser';
import { describe, expect, test } from 'vitest';
import { buildOpenApi } from '../../src/http/openapi.js';
import { tools } from '../../tools/index.js';
import { GOLDEN_BASE, goldenFiles } from '../golden/golden.js';

const doc = buildOpenApi(tools, GOLDEN_BASE);

describe('OpenAPI 3.1 from the registry', () => {
  test('passes a standard OpenAPI validator', async () => {
    const result = await validate(structuredClone(doc) as never);
    expect(result.valid, JSON.stringify((result as { errors?: unknown }).errors ?? null).slice(0, 2000)).toBe(true);
  });

  test('3.1.0, description version 1.4.0, 29 operations whose operationId is the tool name', () => {
    expect(doc.openapi).toBe('3.1.0');
    expect(doc.info.version).toBe('1.4.0');
    const ops = Object.values(doc.paths).flatMap((p) => Object.values(p) as Array<{ operationId: string; security: unknown[] }>);
    expect(ops.map((o) => o.operationId).sort()).toEqual(tools.map((t) => t.name).sort());
  });

  test('bearer security on personal operations only; documented statuses carry the {error} schema', () => {
    for (const t of tools) {
      const op = (doc.paths[t.rest.path] as Record<string, any>)[t.rest.method.toLowerCase()];
      expect(op.security).toEqual(t.access === 'personal' ? [{ bearerAuth: [] }] : []);
      for (const s of t.statuses) {
        const schema = op.responses[s].content['application/json'].schema;
        expect(schema.$ref).toBe(s === 202 ? `#/components/schemas/${op.operationId.split('_').map((w: string) => w[0].toUpperCase() + w.slice(1)).join('')}` : '#/components/schemas/Error');
      }
    }
    // Spec 4.2 attach: 400, 401, 404, 409, 413, 415, 429.
    expect(Object.keys((doc.paths['/api/v1/me/games/{id}'] as any).post.responses)).toEqual(['200', '400', '401', '404', '409', '413', '415', '429']);
  });

  test('path parameters are required path parameters; query parameters carry types and defaults', () => {
    const get = doc.paths['/api/v1/me/games/{id}'].get as any;
    expect(get.parameters).toEqual([expect.objectContaining({ name: 'id', in: 'path', required: true })]);
    const list = doc.paths['/api/v1/me/games'].get as any;
    const page = list.parameters.find((p: any) => p.name === 'page');
    expect(page).toMatchObject({ in: 'query', required: false, schema: { type: 'integer', minimum: 1, default: 1 } });
  });

  test.each(Object.keys(goldenFiles()))('matches the golden %s (npm run gen:golden after an intended change)', (name) => {
    expect(goldenFiles()[name]).toBe(readFileSync(join(import.meta.dirname, '../golden', name), 'utf8'));
  });
});

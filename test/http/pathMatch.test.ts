import { describe, expect, test } from 'vitest';
import { expressPath, pathsUnder, routePattern } from '../../src/http/pathMatch.js';

// Expectations are express 5's matching (path-to-regexp 8 defaults: case-insensitive, not strict).
describe('pathMatch', () => {
  test('pathsUnder: the prefix itself or a path below it, any case; not a longer segment', () => {
    const under = pathsUnder('/api/v1/me');
    for (const path of ['/api/v1/me', '/api/v1/me/', '/api/v1/me/games', '/API/V1/ME/games']) expect(under.test(path), path).toBe(true);
    for (const path of ['/api/v1/meet', '/api/v1', '/x/api/v1/me']) expect(under.test(path), path).toBe(false);
    expect(pathsUnder('/a.b').test('/aXb')).toBe(false); // literal characters, not regexp syntax
  });

  test('routePattern: one non-empty segment per parameter, in order; one trailing slash', () => {
    const route = routePattern('/api/v1/me/games/{id}/analysis');
    expect(route.exec('/api/v1/me/games/g%2F1/analysis')?.slice(1)).toEqual(['g%2F1']);
    expect(route.exec('/API/v1/me/games/g1/analysis/')?.slice(1)).toEqual(['g1']);
    for (const path of ['/api/v1/me/games//analysis', '/api/v1/me/games/a/b/analysis', '/api/v1/me/games/g1/analysis//']) expect(route.test(path), path).toBe(false);
    expect(routePattern('/t/{tnr}/r/{round}').exec('/t/42/r/3')?.slice(1)).toEqual(['42', '3']);
  });

  test('expressPath: {name} segments as :name', () => {
    expect(expressPath('/api/v1/settings/tokens/{id}')).toBe('/api/v1/settings/tokens/:id');
  });
});

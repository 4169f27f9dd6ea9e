import { afterEach, describe, expect, test } from 'vitest';
import { memoByOwner } from '../../../src/services/common/index.js';
import { makeTestApp, type TestApp } from '../../helpers/app.js';

let app: TestApp;
afterEach(async () => app?.close());

describe('memoByOwner with a computation kept as its promise', () => {
  test('readers arriving while it runs share it; one that fails is not kept, so the next read computes again', async () => {
    app = makeTestApp();
    const { user } = app.addUser();
    let runs = 0;
    const failing = () => {
      runs += 1;
      return new Promise<number>((_, reject) => setTimeout(() => reject(new Error('boom')), 5));
    };
    const a = memoByOwner(app.deps.store, user.id, 'probe', failing);
    const b = memoByOwner(app.deps.store, user.id, 'probe', failing);
    expect(b).toBe(a);
    await expect(a).rejects.toThrow('boom');
    expect(runs).toBe(1);
    // Nothing of the owner's data changed, and still the failure is not served again.
    const c = memoByOwner(app.deps.store, user.id, 'probe', async () => {
      runs += 1;
      return 7;
    });
    expect(await c).toBe(7);
    expect(runs).toBe(2);
    // A success is kept until the data changes.
    expect(await memoByOwner(app.deps.store, user.id, 'probe', async () => 8)).toBe(7);
  });
});

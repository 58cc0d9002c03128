// core call/call-scope.ts (REQUEST_BOUND_IO): `WebSocketPair` marks workerd only in a Worker with no
// `navigator` at all (`no_global_navigator`); a Node process that defines it (Miniflare 2 test
// environments, Workers polyfills) has a `navigator` and stays a shared-I/O runtime.
import { afterEach, describe, expect, it, vi } from 'vitest';

async function requestBound(): Promise<boolean> {
  vi.resetModules();
  const { REQUEST_BOUND_IO } = await import('../src/call/call-scope');
  return REQUEST_BOUND_IO;
}

afterEach(() => {
  vi.unstubAllGlobals();
  vi.resetModules();
});

describe('REQUEST_BOUND_IO with a WebSocketPair global', () => {
  it('navigator present (Node, Miniflare 2, a polyfill): not request-bound', async () => {
    vi.stubGlobal('WebSocketPair', function WebSocketPair() {});
    vi.stubGlobal('navigator', { userAgent: 'Node.js/22' });
    expect(await requestBound()).toBe(false);
  });

  it('no navigator at all (workerd with no_global_navigator): request-bound', async () => {
    vi.stubGlobal('WebSocketPair', function WebSocketPair() {});
    vi.stubGlobal('navigator', undefined);
    expect(await requestBound()).toBe(true);
  });

  it('neither: not request-bound', async () => {
    vi.stubGlobal('navigator', { userAgent: 'Node.js/22' });
    expect(await requestBound()).toBe(false);
  });
});

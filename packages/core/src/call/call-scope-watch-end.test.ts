import { describe, expect, it } from 'vitest';
import { CallScope } from './call-scope';

describe('CallScope.watchEnd: each watcher is its own', () => {
  it('two watchers are both cut at the end; neither replaces the other', () => {
    const scope = new CallScope(undefined, 60_000);
    const cut: string[] = [];
    const first = () => cut.push('first');
    const second = () => cut.push('second');
    scope.watchEnd(first);
    scope.watchEnd(second);
    scope.abort(new Error('ended'));
    expect(cut.sort()).toEqual(['first', 'second']);
    scope.dispose();
  });

  it("unwatching one leaves the other's watch", () => {
    for (const unwatched of ['first', 'second'] as const) {
      const scope = new CallScope(undefined, 60_000);
      const cut: string[] = [];
      const watchers = { first: () => cut.push('first'), second: () => cut.push('second') };
      scope.watchEnd(watchers.first);
      scope.watchEnd(watchers.second);
      scope.unwatchEnd(watchers[unwatched]);
      scope.abort(new Error('ended'));
      expect(cut).toEqual([unwatched === 'first' ? 'second' : 'first']);
      scope.dispose();
    }
  });

  it('a watcher of a scope already ended is cut at once', () => {
    const scope = new CallScope(undefined, 60_000);
    scope.abort(new Error('ended'));
    let cut = 0;
    scope.watchEnd(() => cut++);
    expect(cut).toBe(1);
    scope.dispose();
  });
});

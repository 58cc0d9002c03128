import { afterEach, describe, expect, it, vi } from 'vitest';
import { ToolCallIds } from './tool-call-ids';

describe('ToolCallIds', () => {
  afterEach(() => {
    vi.restoreAllMocks();
  });

  it('keeps a given id once; a taken one or none becomes <id or call_<index>>_<n>_<tag>', () => {
    const ids = new ToolCallIds();
    const taken = [
      ids.take('a', 0, 0),
      ids.take('a', 1, 1),
      ids.take(undefined, 2, 2),
      ids.take('a', 0, 3),
    ];
    expect(taken).toEqual([
      'a',
      expect.stringMatching(/^a_1_[0-9a-f]{12}$/),
      expect.stringMatching(/^call_2_2_[0-9a-f]{12}$/),
      expect.stringMatching(/^a_3_[0-9a-f]{12}$/),
    ]);
    // One tag per answer.
    expect(new Set(taken.slice(1).map((id) => id.slice(-12))).size).toBe(1);
  });

  it('never gives an id twice, even when the server sends one of ours or one with our tag', () => {
    const random = vi.spyOn(crypto, 'getRandomValues');
    random.mockImplementationOnce((array) => array);
    const ids = new ToolCallIds();
    // The server's first id is the one we would make next (with the all-zero tag drawn above).
    const taken = [ids.take('call_1_1_000000000000', 0, 0), ids.take(undefined, 1, 1)];
    taken.push(ids.take(taken[1], 2, 2), ids.take('call_1_1_000000000000', 3, 3));
    expect(taken[1]).toMatch(/^call_1_1_[0-9a-f]{12}$/);
    expect(new Set(taken).size).toBe(taken.length);
  });
});

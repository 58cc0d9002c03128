import { afterEach, describe, expect, it, vi } from 'vitest';
import { uniqueCallId } from './read-message-parts';

describe('uniqueCallId', () => {
  afterEach(() => {
    vi.restoreAllMocks();
  });

  it('keeps a given id once; a taken one or none becomes <id or call_<index>>_<n>_<tag>', () => {
    const taken = new Set<string>();
    const ids = [
      uniqueCallId(taken, 'a', 0, 0),
      uniqueCallId(taken, 'a', 1, 1),
      uniqueCallId(taken, undefined, 2, 2),
      uniqueCallId(taken, 'a', 0, 3),
    ];
    expect(ids).toEqual([
      'a',
      expect.stringMatching(/^a_1_[0-9a-f]{12}$/),
      expect.stringMatching(/^call_2_2_[0-9a-f]{12}$/),
      expect.stringMatching(/^a_3_[0-9a-f]{12}$/),
    ]);
    expect([...taken]).toEqual(ids);
  });

  it('never gives an id twice, even when the server sends one we would make', () => {
    // The first tag drawn is all zeros: the id the server sent first.
    vi.spyOn(crypto, 'getRandomValues').mockImplementationOnce((array) => array);
    const taken = new Set<string>();
    const ids = [uniqueCallId(taken, 'call_1_1_000000000000', 0, 0)];
    ids.push(uniqueCallId(taken, undefined, 1, 1));
    expect(ids[1]).toMatch(/^call_1_1_[0-9a-f]{12}$/);
    ids.push(uniqueCallId(taken, ids[1], 2, 2), uniqueCallId(taken, ids[0], 3, 3));
    expect(new Set(ids).size).toBe(4);
  });
});

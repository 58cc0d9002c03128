import { describe, expect, it } from 'vitest';
import { asksSeveralChoices } from './several-choices';

describe('asksSeveralChoices: which n may have more than one choice generated', () => {
  it.each([undefined, null, 1, 0, -1, 0.5, '1', ' 1', '0'])(
    '%o: one choice at most (a lax server reads "1" as 1)',
    (n) => {
      expect(asksSeveralChoices(n)).toBe(false);
    },
  );

  it.each([
    2,
    2.5,
    Number.POSITIVE_INFINITY,
    Number.NaN,
    '2',
    '',
    'one',
    true,
    false,
    [2],
    { n: 2 },
  ])('%o: may be several (a number above 1, or not a number: a lax server reads "2" as 2)', (n) => {
    expect(asksSeveralChoices(n)).toBe(true);
  });
});

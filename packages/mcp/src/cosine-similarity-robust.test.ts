import { describe, expect, it } from 'vitest';
import { cosineSimilarity } from './embedding-tools';

describe('cosineSimilarity on vectors of different lengths', () => {
  it('refuses them, naming both lengths, whichever comes first', () => {
    expect(() => cosineSimilarity([1, 2], [1])).toThrow(
      'cosineSimilarity: the vectors have different lengths (2 and 1)',
    );
    expect(() => cosineSimilarity([1], [1, 2])).toThrow(
      'cosineSimilarity: the vectors have different lengths (1 and 2)',
    );
  });
});

describe('cosineSimilarity near the limits of a double', () => {
  it('is 1 for a vector of huge components with itself (no overflow to NaN)', () => {
    expect(cosineSimilarity([1e200, 1e200], [1e200, 1e200])).toBeCloseTo(1, 12);
    expect(cosineSimilarity([1e308, -1e308], [-1e308, 1e308])).toBeCloseTo(-1, 12);
  });

  it('is 1 for a vector of tiny components with itself (no underflow to 0)', () => {
    expect(cosineSimilarity([1e-200, 0], [1e-200, 0])).toBeCloseTo(1, 12);
    expect(cosineSimilarity([3e-320, 4e-320], [4e-200, 3e-200])).toBeCloseTo(0.96, 2);
  });

  it('stays within -1 … 1 (rounding never takes it past)', () => {
    const v = [0.1, 0.2, 0.3, 0.4, 0.5, 0.6, 0.7];
    const similarity = cosineSimilarity(v, v);
    expect(similarity).toBeLessThanOrEqual(1);
    expect(similarity).toBeCloseTo(1, 12);
  });
});

import { describe, expect, it } from 'vitest';
import { cosineSimilarity } from './embedding-tools';

describe('cosineSimilarity', () => {
  it('is 1 for the same direction, 0 for orthogonal, -1 for opposite vectors', () => {
    expect(cosineSimilarity([1, 2, 3], [2, 4, 6])).toBeCloseTo(1, 12);
    expect(cosineSimilarity([1, 0], [0, 5])).toBe(0);
    expect(cosineSimilarity([1, -1], [-2, 2])).toBeCloseTo(-1, 12);
  });

  it('is 0 when a vector is all zeros (no division by zero)', () => {
    expect(cosineSimilarity([0, 0], [1, 1])).toBe(0);
  });
});

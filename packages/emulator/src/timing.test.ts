import { describe, expect, it } from 'vitest';
import type { LatencyDistribution } from './scenario';
import { drawLatency, latencyProblem, nextLatency, SeededRandom } from './timing';

const SAMPLES = 20_000;

function draws(spec: LatencyDistribution, seed = 42): number[] {
  const random = new SeededRandom(seed);
  return Array.from({ length: SAMPLES }, () => drawLatency(spec, () => random.next()));
}

function quantile(values: number[], q: number): number {
  const sorted = values.toSorted((a, b) => a - b);
  return sorted[Math.ceil(q * sorted.length) - 1]!;
}

// Deterministic (a fixed seed), not timed. With 20 000 draws the sample median is within ~0.5 %
// of the true one and the 99th percentile within ~1.3 % (one standard error): the bounds below
// hold at about four standard errors, so they test the distribution, not the seed.
describe('log-normal latency', () => {
  const body: LatencyDistribution = { distribution: 'lognormal', p50Ms: 300, p99Ms: 900 };

  it('has the given p50 and p99', () => {
    const values = draws(body);
    expect(quantile(values, 0.5)).toBeGreaterThanOrEqual(300 * 0.98);
    expect(quantile(values, 0.5)).toBeLessThanOrEqual(300 * 1.02);
    expect(quantile(values, 0.99)).toBeGreaterThanOrEqual(900 * 0.95);
    expect(quantile(values, 0.99)).toBeLessThanOrEqual(900 * 1.05);
    // The log-normal's own shape: p90 = p50 · e^(σ · 1.2816), σ = ln(3) / 2.3263.
    const p90 = 300 * Math.exp((Math.log(3) / 2.3263478740408408) * 1.2815515655446004);
    expect(quantile(values, 0.9) / p90).toBeCloseTo(1, 1);
    expect(Math.min(...values)).toBeGreaterThan(0);
  });

  it('holds the given share of requests uniformly between minMs and maxMs first', () => {
    const held = { share: 0.02, minMs: 2000, maxMs: 5000 };
    const values = draws({ ...body, held });
    // A body draw past 2 s is 4 σ away (about 3 in 100 000): what passes 2 s was held.
    const slow = values.filter((ms) => ms >= 2000);
    expect(slow.length / SAMPLES).toBeGreaterThanOrEqual(0.017);
    expect(slow.length / SAMPLES).toBeLessThanOrEqual(0.023);
    // Held, then the body's draw: from minMs + a little to maxMs + the body's tail.
    expect(Math.max(...slow)).toBeLessThan(5000 + 2000);
    expect(quantile(slow, 0.5)).toBeGreaterThan(3500);
    expect(quantile(slow, 0.5)).toBeLessThan(4300);
    // The others keep the body's median.
    const fast = values.filter((ms) => ms < 2000);
    expect(quantile(fast, 0.5) / 300).toBeCloseTo(1, 1);
  });

  it('repeats for a seed, and differs between seeds', () => {
    expect(draws(body, 7).slice(0, 50)).toEqual(draws(body, 7).slice(0, 50));
    expect(draws(body, 7).slice(0, 50)).not.toEqual(draws(body, 8).slice(0, 50));
  });

  it('gives each model its own sequence from one spec, the same on every run', () => {
    const spec: LatencyDistribution = { ...body, seed: 3 };
    const a = Array.from({ length: 20 }, () => nextLatency(spec, 'pool/a'));
    const b = Array.from({ length: 20 }, () => nextLatency(spec, 'pool/b'));
    expect(a).not.toEqual(b);
    const again = { ...body, seed: 3 }; // a fresh spec (a new emulator) starts over
    expect(Array.from({ length: 20 }, () => nextLatency(again, 'pool/a'))).toEqual(a);
  });

  it.each([
    [{ distribution: 'pareto', p50Ms: 1, p99Ms: 2 }, /pareto.*unknown/],
    [{ distribution: 'lognormal', p50Ms: 0, p99Ms: 2 }, /p50Ms > 0/],
    [{ distribution: 'lognormal', p50Ms: 300, p99Ms: 200 }, /p99Ms ≥ p50Ms/],
    [
      { distribution: 'lognormal', p50Ms: 3, p99Ms: 9, held: { share: 2, minMs: 1, maxMs: 2 } },
      /share/,
    ],
    [
      { distribution: 'lognormal', p50Ms: 3, p99Ms: 9, held: { share: 0.1, minMs: 5, maxMs: 2 } },
      /minMs ≤ maxMs/,
    ],
    [{ min: 5 }, /min and max/],
    [-1, /number ≥ 0/],
  ])('refuses %j', (latency, message) => {
    expect(latencyProblem(latency, 'latencyMs')).toMatch(message);
  });

  it('accepts the three shapes', () => {
    expect(latencyProblem(20, 'latencyMs')).toBeUndefined();
    expect(latencyProblem({ min: 1, max: 5 }, 'latencyMs')).toBeUndefined();
    expect(
      latencyProblem({ ...body, held: { share: 0.02, minMs: 2000, maxMs: 5000 } }, 'latencyMs'),
    ).toBe(undefined);
  });
});

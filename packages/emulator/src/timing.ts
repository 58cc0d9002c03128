// docs/gateway-protocol.md §2.5 (request duration: past it, 504 `request_timeout`).
import { GatewayRefusal } from './gateway-error';
import type { Latency, LatencyDistribution } from './scenario';

/** xorshift32: a small generator with a fixed seed, so that runs repeat. Draws in (0, 1). */
export class SeededRandom {
  #state: number;

  constructor(seed: number) {
    this.#state = seed >>> 0 || 0x2545f491; // xorshift never leaves 0
  }

  next(): number {
    let x = this.#state;
    x ^= x << 13;
    x ^= x >>> 17;
    x ^= x << 5;
    this.#state = x >>> 0;
    return this.#state / 0x1_0000_0000;
  }
}

/** FNV-1a of a string: turns a seed and a model id into a generator's seed. */
function hashSeed(text: string): number {
  let hash = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) {
    hash ^= text.charCodeAt(i);
    hash = Math.imul(hash, 0x01000193);
  }
  return hash >>> 0;
}

/** The standard normal's 99th percentile: p99 = p50 · e^(σ · Z99) for a log-normal. */
const Z99 = 2.3263478740408408;

/**
 * One draw: held first for the held share (uniform in `[minMs, maxMs]`), then the log-normal
 * body, whose σ follows from its p50 and p99. Always takes the same uniforms in the same order
 * for the same outcome, so a seed fixes the sequence.
 */
export function drawLatency(spec: LatencyDistribution, random: () => number): number {
  const held = spec.held;
  const heldMs =
    held && random() < held.share ? held.minMs + (held.maxMs - held.minMs) * random() : 0;
  const sigma = Math.log(spec.p99Ms / spec.p50Ms) / Z99;
  // Box–Muller; `random()` is never 0, so the logarithm is finite.
  const normal = Math.sqrt(-2 * Math.log(random())) * Math.cos(2 * Math.PI * random());
  return Math.round(heldMs + spec.p50Ms * Math.exp(sigma * normal));
}

/** The shared generator of uniform latencies, and one per distribution and stream name. */
const uniform = new SeededRandom(0x2545f491);
const generators = new WeakMap<LatencyDistribution, Map<string, SeededRandom>>();

function generatorFor(spec: LatencyDistribution, stream: string): SeededRandom {
  let byStream = generators.get(spec);
  if (!byStream) {
    byStream = new Map();
    generators.set(spec, byStream);
  }
  let generator = byStream.get(stream);
  if (!generator) {
    generator = new SeededRandom(hashSeed(`${spec.seed ?? 1}:${stream}`));
    byStream.set(stream, generator);
  }
  return generator;
}

/**
 * The next delay of `latency`: fixed, uniform from a fixed-seed generator, or drawn from its
 * distribution; `stream` (a model id) gives each model its own sequence of draws.
 */
export function nextLatency(latency: Latency, stream = 'latencyMs'): number {
  if (typeof latency === 'number') return Math.max(0, latency);
  if ('distribution' in latency) {
    const generator = generatorFor(latency, stream);
    return Math.max(
      0,
      drawLatency(latency, () => generator.next()),
    );
  }
  const min = Math.max(0, latency.min);
  const max = Math.max(min, latency.max);
  return min === max ? min : Math.round(min + (max - min) * uniform.next());
}

function isNumber(value: unknown, min = 0): value is number {
  return typeof value === 'number' && Number.isFinite(value) && value >= min;
}

/** What is wrong with a latency (`latencyMs`, a model's `firstChunkMs`), or undefined. */
export function latencyProblem(latency: unknown): string | undefined {
  if (isNumber(latency)) return undefined;
  if (typeof latency !== 'object' || latency === null) {
    return 'must be a number ≥ 0, { min, max } or { distribution: "lognormal", p50Ms, p99Ms }';
  }
  const spec = latency as Partial<Record<string, unknown>>;
  if (!('distribution' in spec)) {
    return isNumber(spec.min) && isNumber(spec.max) ? undefined : 'needs min and max ≥ 0';
  }
  if (spec.distribution !== 'lognormal') {
    return `distribution ${JSON.stringify(spec.distribution)} is unknown (known: lognormal)`;
  }
  if (!isNumber(spec.p50Ms) || spec.p50Ms <= 0) return 'needs p50Ms > 0';
  if (!isNumber(spec.p99Ms, spec.p50Ms)) return 'needs p99Ms ≥ p50Ms';
  if (spec.seed !== undefined && !Number.isFinite(spec.seed)) return 'seed must be a number';
  if (spec.held == null) return undefined;
  const held = spec.held as Partial<Record<string, unknown>>;
  if (!isNumber(held.share) || held.share > 1) return 'held.share must be from 0 to 1';
  if (!isNumber(held.minMs) || !isNumber(held.maxMs, held.minMs)) {
    return 'held needs 0 ≤ minMs ≤ maxMs';
  }
  return undefined;
}

function abortError(): DOMException {
  return new DOMException('The request was aborted', 'AbortError');
}

/**
 * Waits `ms` before the response headers. Past the deadline it refuses with 504
 * `request_timeout`; when the client aborts, it rejects like fetch does (AbortError).
 */
export async function waitBeforeHeaders(
  ms: number,
  deadline: number,
  signal: AbortSignal,
): Promise<void> {
  if (signal.aborted) throw abortError();
  if (ms <= 0) return;
  const remaining = deadline - Date.now();
  const wait = Math.min(ms, Math.max(0, remaining));
  await new Promise<void>((resolve, reject) => {
    const onAbort = () => {
      clearTimeout(timer);
      reject(abortError());
    };
    const timer = setTimeout(() => {
      signal.removeEventListener('abort', onAbort);
      resolve();
    }, wait);
    signal.addEventListener('abort', onAbort, { once: true });
  });
  if (ms > remaining) {
    throw new GatewayRefusal('request_timeout', 'The request exceeded its time limit');
  }
}

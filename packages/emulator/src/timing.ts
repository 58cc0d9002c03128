// docs/gateway-protocol.md §2.5 (request duration: past it, 504 `request_timeout`).
import { fieldPath, prototypeKeyProblem, unknownField } from './field-names';
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

/** The shared generator of uniform latencies, and one per seeded spec and stream name. */
const uniform = new SeededRandom(0x2545f491);
const generators = new WeakMap<object, Map<string, SeededRandom>>();

/**
 * The generator of a seeded spec (a latency distribution, a model's `jsonAnswers`) for one stream
 * (a model id): each starts from the spec's `seed` (default 1) and the stream's name, so runs repeat.
 */
export function seededGenerator(spec: { seed?: number | null }, stream: string): SeededRandom {
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
    const generator = seededGenerator(latency, stream);
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

const RANGE_FIELDS = ['min', 'max'];
const DISTRIBUTION_FIELDS = ['distribution', 'p50Ms', 'p99Ms', 'held', 'seed'];
const HELD_FIELDS = ['share', 'minMs', 'maxMs'];
const LATENCY_SHAPES =
  'a number ≥ 0, { "min", "max" } or { "distribution": "lognormal", "p50Ms", "p99Ms" }';

/** The first field of `spec` that is not in `known`, refused with the closest known name. */
function unknownFieldIn(spec: object, known: string[], path: string): string | undefined {
  for (const key of Object.keys(spec)) {
    const at = fieldPath(path, key);
    const problem = prototypeKeyProblem(at, key);
    if (problem !== undefined) return problem;
    if (!known.includes(key)) return unknownField(at, key, known);
  }
  return undefined;
}

function rangeProblem(spec: Record<string, unknown>, path: string): string | undefined {
  // A log-normal's field without `distribution` would otherwise read as a broken range.
  const lognormal = Object.keys(spec).find((key) => DISTRIBUTION_FIELDS.includes(key));
  if (lognormal !== undefined) {
    return `${path} has ${lognormal} but no distribution: a log-normal latency needs "distribution": "lognormal" (a range has only min and max)`;
  }
  const unknown = unknownFieldIn(spec, [...RANGE_FIELDS, 'distribution'], path);
  if (unknown !== undefined) return unknown;
  return isNumber(spec.min) && isNumber(spec.max, spec.min)
    ? undefined
    : `${path} needs min and max with 0 ≤ min ≤ max, got ${JSON.stringify(spec)}`;
}

function heldProblem(held: unknown, path: string): string | undefined {
  if (typeof held !== 'object' || held === null || Array.isArray(held)) {
    return `${path} must be { "share", "minMs", "maxMs" }, got ${JSON.stringify(held)}`;
  }
  const unknown = unknownFieldIn(held, HELD_FIELDS, path);
  if (unknown !== undefined) return unknown;
  const { share, minMs, maxMs } = held as Record<string, unknown>;
  if (!isNumber(share) || share > 1) return `${path}.share must be from 0 to 1`;
  if (!isNumber(minMs) || !isNumber(maxMs, minMs)) return `${path} needs 0 ≤ minMs ≤ maxMs`;
  return undefined;
}

/**
 * What is wrong with a latency (`latencyMs`, a model's `firstChunkMs`) at `path`, or undefined:
 * every field is checked, so a misspelt one is refused rather than giving a fast model.
 */
export function latencyProblem(latency: unknown, path: string): string | undefined {
  if (isNumber(latency)) return undefined;
  if (typeof latency !== 'object' || latency === null || Array.isArray(latency)) {
    return `${path} must be ${LATENCY_SHAPES}, got ${JSON.stringify(latency)}`;
  }
  const spec = latency as Record<string, unknown>;
  if (!Object.hasOwn(spec, 'distribution')) return rangeProblem(spec, path);
  const unknown = unknownFieldIn(spec, DISTRIBUTION_FIELDS, path);
  if (unknown !== undefined) return unknown;
  if (spec.distribution !== 'lognormal') {
    return `${path}.distribution ${JSON.stringify(spec.distribution)} is unknown (known: lognormal)`;
  }
  if (!isNumber(spec.p50Ms) || spec.p50Ms <= 0) return `${path} needs p50Ms > 0`;
  if (!isNumber(spec.p99Ms, spec.p50Ms)) return `${path} needs p99Ms ≥ p50Ms`;
  if (spec.seed !== undefined && !Number.isFinite(spec.seed)) {
    return `${path}.seed must be a number`;
  }
  return spec.held == null ? undefined : heldProblem(spec.held, `${path}.held`);
}

/** Longest delay one `setTimeout` holds: Node fires a longer one after 1 ms. */
const MAX_TIMER_MS = 0x7fff_ffff;

/**
 * A delay that `setTimeout` holds as asked: every timer of the emulator goes through it. A longer
 * one ends at the cap (24.8 days, as good as never for a test); a negative one or NaN at once.
 */
export function timerMs(ms: number): number {
  return ms > 0 ? Math.min(ms, MAX_TIMER_MS) : 0;
}

/** What a wait rejects with when its client aborts (as fetch does). */
export function abortError(): DOMException {
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
    }, timerMs(wait));
    signal.addEventListener('abort', onAbort, { once: true });
  });
  if (ms > remaining) {
    throw new GatewayRefusal('request_timeout', 'The request exceeded its time limit');
  }
}

// docs/gateway-protocol.md §2.2, §3.1, §3.2 (the keys, models and services a scenario describes).
import { CHAT_DIALECTS } from './chat/dialects';
import { faultRuleProblem } from './faults';
import {
  entryPath,
  fieldPath,
  prototypeKeyProblem,
  unknownField,
  unknownValue,
} from './field-names';
import { latencyProblem } from './timing';

/**
 * A scenario the emulator refuses: an unknown field or value (named with its path and the closest
 * known name), a value of the wrong kind, a key that names a prototype, or settings that cannot
 * work together.
 */
export class ScenarioError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'ScenarioError';
  }
}

/** What is wrong with `value` at `path`, or undefined. */
type Check = (value: unknown, path: string) => string | undefined;

/** Longest value quoted in a message: a huge string or object is cut, not copied whole. */
const MAX_SHOWN_CHARS = 80;

function got(value: unknown): string {
  const shown = JSON.stringify(value) ?? String(value);
  return `got ${shown.length > MAX_SHOWN_CHARS ? `${shown.slice(0, MAX_SHOWN_CHARS)}…` : shown}`;
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

const text: Check = (value, path) =>
  typeof value === 'string' ? undefined : `${path} must be a string, ${got(value)}`;

const flag: Check = (value, path) =>
  typeof value === 'boolean' ? undefined : `${path} must be true or false, ${got(value)}`;

/** A finite number ≥ `least`; a whole one with `whole`. */
function number(least: number, whole = false): Check {
  return (value, path) =>
    typeof value === 'number' && Number.isFinite(value) && value >= least
      ? whole && !Number.isInteger(value)
        ? `${path} must be a whole number, ${got(value)}`
        : undefined
      : `${path} must be a number ≥ ${least}, ${got(value)}`;
}

function oneOf(values: readonly string[]): Check {
  return (value, path) => {
    if (typeof value !== 'string')
      return `${path} must be one of ${values.join(', ')}, ${got(value)}`;
    return values.includes(value) ? undefined : unknownValue(path, value, values);
  };
}

function list(item: Check): Check {
  return (value, path) => {
    if (!Array.isArray(value)) return `${path} must be an array, ${got(value)}`;
    for (const [index, entry] of value.entries()) {
      const problem = item(entry, entryPath(path, index));
      if (problem !== undefined) return problem;
    }
    return undefined;
  };
}

/**
 * An object with these fields only. `null` removes a field (the merge's rule), so it passes where
 * the field may go (`removable`); the scenario's own sections and settings cannot.
 */
function fields(shape: Record<string, Check>, removable = true): Check {
  const known = Object.keys(shape);
  return (value, path) => {
    if (!isRecord(value)) return `${path || 'a scenario'} must be an object, ${got(value)}`;
    for (const [field, fieldValue] of Object.entries(value)) {
      const at = fieldPath(path, field);
      const problem =
        prototypeKeyProblem(at, field) ??
        (Object.hasOwn(shape, field) ? undefined : unknownField(at, field, known));
      if (problem !== undefined) return problem;
      if (fieldValue === null && !removable)
        return `${at} cannot be null (only entries and their optional fields can be removed)`;
      if (fieldValue == null) continue;
      const invalid = shape[field]!(fieldValue, at);
      if (invalid !== undefined) return invalid;
    }
    return undefined;
  };
}

/** A record keyed by ids (models, keys, engines); `null` removes an entry. */
function entries(entry: Check): Check {
  return (value, path) => {
    if (!isRecord(value)) return `${path} must be an object, ${got(value)}`;
    for (const [key, entryValue] of Object.entries(value)) {
      const at = entryPath(path, key);
      const problem =
        prototypeKeyProblem(at, key) ?? (entryValue == null ? undefined : entry(entryValue, at));
      if (problem !== undefined) return problem;
    }
    return undefined;
  };
}

const latency: Check = (value, path) => latencyProblem(value, path);

const faults: Check = (value, path) =>
  Array.isArray(value)
    ? value.map((rule, index) => faultRuleProblem(rule, entryPath(path, index))).find(Boolean)
    : `${path} must be an array of fault rules, ${got(value)}`;

const seed: Check = (value, path) =>
  typeof value === 'number' && Number.isFinite(value)
    ? undefined
    : `${path} must be a number, ${got(value)}`;

/** A share of requests, 0 to 1. */
const share: Check = (value, path) =>
  typeof value === 'number' && value >= 0 && value <= 1
    ? undefined
    : `${path} must be a share from 0 to 1, ${got(value)}`;

const jsonAnswers: Check = (value, path) => {
  const problem = fields({
    invalidShare: share,
    offSchemaShare: share,
    wrap: oneOf(['prose', 'fence', 'prose-fence', 'fence-inline']),
    seed,
  })(value, path);
  if (problem !== undefined) return problem;
  const shares = value as { invalidShare?: number | null; offSchemaShare?: number | null };
  const total = (shares.invalidShare ?? 0) + (shares.offSchemaShare ?? 0);
  return total <= 1 ? undefined : `${path} needs invalidShare + offSchemaShare ≤ 1, got ${total}`;
};

const CAPABILITIES = ['chat', 'streaming', 'tools', 'json_object', 'json_schema'] as const;
const OWNERS = ['service-owner', 'service-pool', 'service-community'] as const;

const key = fields({
  name: text,
  allowUnshielded: flag,
  offlineFallback: flag,
  allowedModels: list(text),
});

const model = fields({
  owned_by: oneOf(OWNERS),
  name: text,
  capabilities: list(oneOf(CAPABILITIES)),
  online: flag,
  verification: oneOf(['exact', 'provider_claimed']),
  pool: text,
  copies: number(0, true),
  capacity: number(0, true),
  fallback: text,
  dialect: oneOf(CHAT_DIALECTS),
  firstChunkMs: latency,
  jsonAnswers,
  listing: oneOf(['no_capabilities', 'no_id']),
  usage: oneOf(['omitted']),
});

const serviceFields = { name: text, availableNodes: number(0, true), capacity: number(0, true) };
const service = fields(serviceFields, false);

const engine = fields({
  name: text,
  capacity: number(0, true),
  available: flag,
  dimensions: list(number(1, true)),
  listDimensions: flag,
  maxTextBytes: number(1, true),
  inputTypes: flag,
});

const scenarioInput = fields(
  {
    keys: entries(key),
    models: entries(model),
    services: fields(
      {
        translation: service,
        ocr: service,
        speech_to_text: service,
        embeddings: fields({ ...serviceFields, engines: entries(engine) }, false),
      },
      false,
    ),
    latencyMs: latency,
    streamChunkDelayMs: number(0),
    // 0 would time out every request with a body before its first byte is read.
    requestTimeoutMs: number(1),
    maxConcurrentPerKey: number(0, true),
    retryAfterSeconds: number(0),
    faults,
  },
  false,
);

/**
 * Checks every field of a scenario input at every depth before it is merged: an unknown field or
 * capability, a value of the wrong kind or a prototype key throws a `ScenarioError` naming it.
 */
export function checkScenarioInput(input: unknown): void {
  const problem = scenarioInput(input, '');
  if (problem !== undefined) throw new ScenarioError(problem);
}

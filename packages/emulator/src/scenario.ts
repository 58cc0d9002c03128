import type { FaultRule } from './faults';

/** The four optional chat capabilities, besides `chat` which every model has. */
export type OptionalCapability = 'streaming' | 'tools' | 'json_object' | 'json_schema';
export type ModelCapability = 'chat' | OptionalCapability;
export type ModelOwner = 'service-owner' | 'service-pool' | 'service-community';
export type ServiceId = 'translation' | 'ocr' | 'speech_to_text' | 'embeddings';

/** Settings of one API key (the key string is the record key in `Scenario.keys`). */
export interface KeySettings {
  /** Short name used in docs and `DEFAULT_KEYS`. */
  name?: string;
  /** "Allow Unshielded models": lists and uses `my/...` and pool models. */
  allowUnshielded: boolean;
  /** Offline setting: an offline model with a `fallback` is answered by that pool model. */
  offlineFallback: boolean;
  /** When set, the only model ids this key may use (others are unlisted, `model_not_allowed`). */
  allowedModels?: string[] | null;
}

/** One chat model (the model id is the record key in `Scenario.models`). */
export interface ModelSpec {
  owned_by: ModelOwner;
  name?: string;
  /** `chat` is implied; list any of `streaming`, `tools`, `json_object`, `json_schema`. */
  capabilities: ModelCapability[];
  online: boolean;
  verification?: 'exact' | 'provider_claimed';
  pool?: string | null;
  copies?: number | null;
  /** Requests the model runs at once; more get 429 `model_busy`. */
  capacity?: number | null;
  /** Pool model that answers when this model is offline and the key's offline setting allows. */
  fallback?: string | null;
}

export interface EngineSpec {
  name: string;
  capacity?: number;
  /** An unavailable engine is not listed and refused with `provider_unavailable`. */
  available: boolean;
  /** Dimensions the engine can produce; the first is the default. */
  dimensions: number[];
  /** Limit per text in UTF-8 bytes (null: only the request total applies). */
  maxTextBytes?: number | null;
  /** Whether `input_type` (`document` / `query`) is honoured. */
  inputTypes?: boolean;
}

export interface ServiceSpec {
  name: string;
  availableNodes: number;
  capacity?: number;
}

export interface EmbeddingsServiceSpec extends ServiceSpec {
  engines: Record<string, EngineSpec>;
}

export interface ServicesSpec {
  translation: ServiceSpec;
  ocr: ServiceSpec;
  speech_to_text: ServiceSpec;
  embeddings: EmbeddingsServiceSpec;
}

export type Latency = number | { min: number; max: number };

/** The whole emulated gateway. JSON-serialisable. */
export interface Scenario {
  /** API key string → settings. */
  keys: Record<string, KeySettings>;
  /** Model id → model. Insertion order is the listing order. */
  models: Record<string, ModelSpec>;
  services: ServicesSpec;
  /** Delay before the response headers of every request. */
  latencyMs: Latency;
  /** Delay between two SSE events of a stream. */
  streamChunkDelayMs: number;
  /** Per-request deadline; past it: 504 `request_timeout` (or a mid-stream error event). */
  requestTimeoutMs: number;
  /** Requests one key may run at once; more get 429 `client_concurrency_exceeded`. */
  maxConcurrentPerKey: number;
  /** `Retry-After` seconds on the concurrency and capacity 429s. */
  retryAfterSeconds: number;
  /** Fault rules applied to matching requests (see `FaultRule`). */
  faults: FaultRule[];
}

type DeepPartial<T> = T extends (infer U)[]
  ? U[]
  : T extends object
    ? { [K in keyof T]?: DeepPartial<T[K]> | null }
    : T;

/**
 * Scenario input: any part of a `Scenario`, merged over `defaultScenario()`. Objects merge key by
 * key, arrays replace, and `null` removes an entry (e.g. `{ models: { 'community/plain': null } }`).
 */
export type ScenarioInput = DeepPartial<Scenario>;

/** The default API keys, by name. */
export const DEFAULT_KEYS = {
  full: 'ig-emu-full-0000',
  shielded: 'ig-emu-shielded-0000',
  nofallback: 'ig-emu-nofallback-0000',
  limited: 'ig-emu-limited-0000',
} as const;

const COMBO_FLAGS: [string, OptionalCapability][] = [
  ['s', 'streaming'],
  ['t', 'tools'],
  ['o', 'json_object'],
  ['j', 'json_schema'],
];

function comboModels(): Record<string, ModelSpec> {
  const models: Record<string, ModelSpec> = {};
  for (let mask = 0; mask < 16; mask++) {
    const flags = COMBO_FLAGS.filter((_, i) => mask & (1 << i));
    const id = `combo/${flags.map(([letter]) => letter).join('') || 'none'}`;
    models[id] = community(flags.map(([, cap]) => cap));
  }
  return Object.fromEntries(
    Object.entries(models).sort(([a], [b]) => comboOrder(a) - comboOrder(b)),
  );
}

/** Orders `combo/*` ids by the number of flags, then by flag order (none, s, t, o, j, st, ...). */
function comboOrder(id: string): number {
  const letters = id.slice('combo/'.length).replace('none', '');
  let rank = 0;
  for (const letter of letters) rank = rank * 5 + 1 + 'stoj'.indexOf(letter);
  return letters.length * 1000 + rank;
}

function community(capabilities: OptionalCapability[]): ModelSpec {
  return {
    owned_by: 'service-community',
    capabilities: ['chat', ...capabilities],
    online: true,
    verification: 'exact',
    capacity: 64,
  };
}

const EVERYTHING: OptionalCapability[] = ['streaming', 'tools', 'json_object', 'json_schema'];

/** A fresh copy of the default scenario (see the package README for the table). */
export function defaultScenario(): Scenario {
  return {
    keys: {
      [DEFAULT_KEYS.full]: { name: 'full', allowUnshielded: true, offlineFallback: true },
      [DEFAULT_KEYS.shielded]: { name: 'shielded', allowUnshielded: false, offlineFallback: true },
      [DEFAULT_KEYS.nofallback]: {
        name: 'nofallback',
        allowUnshielded: true,
        offlineFallback: false,
      },
      [DEFAULT_KEYS.limited]: {
        name: 'limited',
        allowUnshielded: true,
        offlineFallback: true,
        allowedModels: ['community/general'],
      },
    },
    models: {
      'community/general': { ...community(EVERYTHING), name: 'General (everything)' },
      'community/plain': { ...community([]), name: 'Plain (chat only)' },
      'community/streamer': { ...community(['streaming']), name: 'Streamer' },
      'community/tools': { ...community(['streaming', 'tools']), name: 'Tools' },
      'community/json-object': { ...community(['streaming', 'json_object']), name: 'JSON object' },
      'community/json-schema': { ...community(['streaming', 'json_schema']), name: 'JSON schema' },
      ...comboModels(),
      'pool-a/llama-3-8b': {
        owned_by: 'service-pool',
        name: 'Llama 3 8B',
        capabilities: ['chat', ...EVERYTHING],
        online: true,
        verification: 'provider_claimed',
        pool: 'pool-a',
        copies: 2,
        capacity: 8,
      },
      'pool-a/qwen-7b': {
        owned_by: 'service-pool',
        name: 'Qwen 7B',
        capabilities: ['chat', 'streaming', 'tools'],
        online: true,
        verification: 'provider_claimed',
        pool: 'pool-a',
        copies: 1,
        capacity: 4,
      },
      'my/desk-model': {
        owned_by: 'service-owner',
        name: 'Desk model',
        capabilities: ['chat', 'streaming'],
        online: true,
        verification: 'exact',
        capacity: 4,
      },
      'my/laptop-model': {
        owned_by: 'service-owner',
        name: 'Laptop model',
        capabilities: ['chat', 'streaming', 'tools'],
        online: false,
        verification: 'exact',
        capacity: 4,
        fallback: 'pool-a/llama-3-8b',
      },
    },
    services: {
      translation: { name: 'Translation', availableNodes: 2, capacity: 8 },
      ocr: { name: 'Text from images', availableNodes: 1, capacity: 4 },
      speech_to_text: { name: 'Speech to text', availableNodes: 1, capacity: 4 },
      embeddings: {
        name: 'Embeddings',
        availableNodes: 2,
        capacity: 16,
        engines: {
          'multilingual-e5-base': {
            name: 'Multilingual E5 base',
            capacity: 8,
            available: true,
            dimensions: [768, 512, 256, 128],
            maxTextBytes: 32 * 1024,
            inputTypes: true,
          },
          'all-minilm-l6-v2': {
            name: 'all-MiniLM-L6-v2 (English)',
            capacity: 8,
            available: true,
            dimensions: [384],
            maxTextBytes: null,
            inputTypes: false,
          },
        },
      },
    },
    latencyMs: 0,
    streamChunkDelayMs: 0,
    requestTimeoutMs: 5 * 60 * 1000,
    maxConcurrentPerKey: 4,
    retryAfterSeconds: 1,
    faults: [],
  };
}

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function mergeInto(target: Record<string, unknown>, patch: Record<string, unknown>): void {
  for (const [key, value] of Object.entries(patch)) {
    if (value === undefined) continue;
    if (value === null) {
      delete target[key];
    } else if (isPlainObject(value) && isPlainObject(target[key])) {
      mergeInto(target[key] as Record<string, unknown>, value);
    } else {
      target[key] = structuredClone(value);
    }
  }
}

function ownerFromId(id: string): ModelOwner {
  if (id.startsWith('my/')) return 'service-owner';
  return /^pool[^/]*\//.test(id) ? 'service-pool' : 'service-community';
}

/** Fills what a partial entry added by a scenario left out, so handlers can rely on it. */
function fillDefaults(scenario: Scenario): void {
  for (const [id, model] of Object.entries(scenario.models)) {
    model.owned_by ??= ownerFromId(id);
    model.capabilities ??= ['chat'];
    model.online ??= true;
  }
  for (const key of Object.values(scenario.keys)) {
    key.allowUnshielded ??= false;
    key.offlineFallback ??= false;
  }
  for (const [id, engine] of Object.entries(scenario.services.embeddings.engines)) {
    engine.name ??= id;
    engine.available ??= true;
    if (!Array.isArray(engine.dimensions) || engine.dimensions.length === 0) {
      engine.dimensions = [384];
    }
  }
}

/** `defaultScenario()` with `input` merged over it (objects merge, arrays replace, null removes). */
export function resolveScenario(input: ScenarioInput = {}): Scenario {
  const scenario = defaultScenario();
  mergeInto(scenario as unknown as Record<string, unknown>, input as Record<string, unknown>);
  fillDefaults(scenario);
  return scenario;
}

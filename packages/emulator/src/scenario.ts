// docs/gateway-protocol.md §2.2 (key settings), §3.1 and §3.2 (models and services).
import type { ChatDialect } from './chat/dialects';
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
  /**
   * How the model server behind this model writes its answers (reasoning fields, content parts,
   * chunk order; see the README's dialect table). Default `gateway`.
   */
  dialect?: ChatDialect | null;
  /**
   * Time to the first chunk of this model's answers, drawn afresh for each request (after the
   * scenario's `latencyMs`): a stream sends its headers at once and its first event after it; a
   * non-streamed answer waits it before its headers. A number, `{ min, max }` or a
   * `LatencyDistribution` (a heavy tail). Default: none.
   */
  firstChunkMs?: Latency | null;
  /**
   * How the model keeps its word on JSON answers (`response_format` json_schema or json_object):
   * a seeded share cut short or off the schema, a wrapping in prose or a code fence. Default:
   * valid, bare JSON.
   */
  jsonAnswers?: JsonAnswers | null;
  /**
   * How `GET /models` lists the model when not whole: `no_capabilities` leaves out its
   * `capabilities` field (a gateway that does not say), `no_id` its `id` (an entry a client
   * cannot read). The model answers chat requests as ever. Default: whole.
   */
  listing?: 'no_capabilities' | 'no_id' | null;
  /**
   * `omitted`: the model server never reports usage (the spec's usage is "present when the model
   * server reports it"): no `usage` in a JSON answer, and none in a stream even when
   * `stream_options.include_usage` asks for it. Default: reported.
   */
  usage?: 'omitted' | null;
}

/**
 * A model's JSON answers as a model server that only claims JSON output may send them. One seeded
 * draw per answer, from the model's own sequence (its id and `seed`), picks cut short (not JSON),
 * off the schema (parses, but its required fields are missing or its type is another) or kept;
 * then `wrap` applies to all.
 */
export interface JsonAnswers {
  /** Share (0–1) of JSON answers cut short: not valid JSON. */
  invalidShare?: number;
  /** Share (0–1) of JSON answers that parse but break the schema. */
  offSchemaShare?: number;
  /**
   * `prose`: a sentence before and after the JSON; `fence`: a ```json code fence around it;
   * `prose-fence`: the fence with a sentence before and after it; `fence-inline`: the fence
   * closed on the JSON's own line (```` ```json\n{…}``` ````), a sentence after it.
   */
  wrap?: 'prose' | 'fence' | 'prose-fence' | 'fence-inline' | null;
  /** Seed of the draws (default 1). */
  seed?: number;
}

export interface EngineSpec {
  name: string;
  capacity?: number;
  /** An unavailable engine is not listed and refused with `provider_unavailable`. */
  available: boolean;
  /** Dimensions the engine can produce; the first is the default. */
  dimensions: number[];
  /**
   * Whether `GET /capabilities` lists `dimensions` for the engine, a field the spec's catalog does
   * not have (§3.2: `id`, `name`, `capacity`). Default: when the scenario gives the engine's
   * `dimensions`; never for the default engines.
   */
  listDimensions?: boolean;
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

/**
 * A delay drawn afresh for each request: a log-normal body given by its median and 99th
 * percentile, and a share of requests held uniformly between `held.minMs` and `held.maxMs` first
 * (a copy stuck behind a long prefill: most of a real tail, and what a hedge to another copy
 * escapes). Deterministic: the draws follow from `seed` and, for a model's `firstChunkMs`, the
 * model's id (so copies sharing one spec draw independently).
 */
export interface LatencyDistribution {
  distribution: 'lognormal';
  /** Median of the log-normal body, ms (> 0). */
  p50Ms: number;
  /** 99th percentile of the log-normal body, ms (≥ `p50Ms`). */
  p99Ms: number;
  /** The share of requests (0–1) held `minMs`–`maxMs` (uniform) before their draw from the body. */
  held?: { share: number; minMs: number; maxMs: number } | null;
  /** Seed of the draws (default 1). */
  seed?: number;
}

/** A fixed delay (ms), uniform in `[min, max]`, or drawn from a `LatencyDistribution`. */
export type Latency = number | { min: number; max: number } | LatencyDistribution;

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

/**
 * The entry of a scenario record (keys, models, engines) for an id a request names: own entries
 * only, so that an id such as `constructor` or `toString` finds nothing rather than a function.
 */
export function ownEntry<T>(record: Record<string, T>, id: string): T | undefined {
  return Object.hasOwn(record, id) ? record[id] : undefined;
}

// docs/gateway-protocol.md §2 (base URL, key, headers, concurrency and duration), §3.3 (catalog TTL),
// §4.7 (stall timeouts).
import {
  BUDGET_OPTIONS,
  type BudgetOptions,
  type CircuitBreakerOptions,
  createGatewayClient,
  type GatewayClient,
  type GatewayClientOptions,
  type GatewayEventHandler,
  type SteeringOptions,
  TIMEOUT_OPTIONS,
  type TimeoutOptions,
} from '@infergate/core';
import {
  apiKeyOrEnv,
  type EveryKey,
  keyKeptOut,
  optionKeys,
  RETRY_DEFAULTS,
  readCircuitBreaker,
  readHedge,
  refuseUnknownOptions,
  withSettingNames,
} from '@infergate/core/internal';
import type { GatewayModelConfig } from '../shared/gateway-model-config';
import { mapGatewayError, SETTINGS_CONTEXT } from '../shared/map-gateway-error';
import { withUserAgent } from '../shared/user-agent';

/**
 * The provider's settings: core's `budget` and `timeouts` groups (`maxConcurrency`,
 * `maxConcurrencyPerKey`, `budget`; `timeoutMs`, and for chat calls `firstChunkTimeoutMs` and
 * `chunkTimeoutMs`, which a model's setting or a call's provider option overrides), `hedge` and
 * `circuitBreaker`, and the client settings below. Any other key is refused by `createGateway`.
 */
export interface GatewayProviderSettings
  extends BudgetOptions,
    TimeoutOptions,
    Pick<SteeringOptions, 'hedge'> {
  /** Gateway base URL, ending in `/v1`. Default (also when `undefined`): the `INFERGATE_BASE_URL` environment variable. */
  baseURL?: string | undefined;
  /** API key. Default (also when `undefined`): the `INFERGATE_API_KEY` environment variable. Never logged. */
  apiKey?: string | undefined;
  /**
   * Headers sent with every request. An entry whose value is undefined (`{ 'x-org':
   * process.env.ORG }` without `ORG`) is left out, as the AI SDK's providers leave it out.
   */
  headers?: Record<string, string | undefined>;
  /** A WHATWG fetch, e.g. for tests or proxies. Default: the global `fetch`. */
  fetch?: typeof fetch;
  /** Per-model circuit breakers of calls with `fallbackModels` (core's `circuitBreaker`); default on. */
  circuitBreaker?: CircuitBreakerOptions | false;
  /** How long the model and service catalog is cached. Default 60 000 ms. */
  catalogTtlMs?: number;
  /**
   * Longest `Retry-After` worth waiting for: a 429 asking for longer is not retryable
   * (`APICallError.isRetryable: false`), so `ai` fails at once instead of waiting. Default 60 000 ms;
   * a wait of 60 s or more is never retryable, as `ai` would not wait it (above 59 999 acts as 59 999).
   */
  maxRetryAfterMs?: number;
  /**
   * Largest answer read, in bytes (core's `maxResponseBytes`; a stream's total size too): larger
   * fails with `response_too_large`. Default 32 MiB; raise it for longer streamed answers.
   */
  maxResponseBytes?: number;
  /** Core's per-call events (queue wait, attempts, served model, usage); see core's Observability. */
  onEvent?: GatewayEventHandler;
  /** Let `onEvent` events carry request and answer bodies. Default `false`. */
  recordContent?: boolean;
  /**
   * `streamText` asks for usage with `stream_options: { include_usage: true }` (model servers
   * such as vLLM or llama.cpp send usage in a stream only when asked). `false` for a model server
   * that refuses unknown fields; `providerOptions.infergate.streamUsage` overrides it per call.
   * Default `true`.
   */
  streamUsage?: boolean;
}

/** The provider's own settings, beside core's groups: each is a client option of the same name. */
const OWN_SETTINGS = [
  'baseURL',
  'apiKey',
  'headers',
  'fetch',
  'circuitBreaker',
  'catalogTtlMs',
  'maxRetryAfterMs',
  'maxResponseBytes',
  'onEvent',
  'recordContent',
  'streamUsage',
] as const satisfies readonly (keyof GatewayProviderSettings & keyof GatewayClientOptions)[];

/** Every setting `createGateway` takes, each passed to its client under the same name. */
export const PROVIDER_SETTING_KEYS: readonly (keyof GatewayProviderSettings)[] = [
  ...OWN_SETTINGS,
  ...optionKeys(BUDGET_OPTIONS),
  ...optionKeys(TIMEOUT_OPTIONS),
  'hedge',
];

/**
 * Core's client options `createGateway` does not take (`ai` does the retries), each with what to do
 * instead: every client option is a provider setting or one of these (else this fails to compile).
 * The one set of words, whether one is given to `createGateway` or in `providerOptions.infergate`,
 * as it is or in snake_case.
 */
export const INSTEAD_OF_CLIENT_OPTION: Readonly<Record<string, string>> = {
  maxRetries: '(`maxRetries`: pass it to generateText / streamText)',
  retryBaseDelayMs:
    '(`ai` does the retries, waiting its own backoff: pass `maxRetries` to generateText / streamText)',
  maxErrorBodyBytes: "(an error keeps up to 64 KiB of its body, core's default)",
} satisfies EveryKey<Omit<GatewayClientOptions, keyof GatewayProviderSettings>, string>;

/** `createGateway`'s refusal of one of them, as it is or in snake_case, saying what to do instead. */
const NOT_SETTING_HINTS: Readonly<Record<string, string>> = Object.fromEntries(
  Object.entries(INSTEAD_OF_CLIENT_OPTION).flatMap(([option, instead]) => {
    const hint = `\`${option}\` is a client option \`createGateway\` does not take ${instead}`;
    const snake = option.replace(/[A-Z]/g, (letter) => `_${letter.toLowerCase()}`);
    return [
      [option, hint],
      [snake, hint],
    ];
  }),
);

/** The kinds of object a provider makes, each named in its `provider` (`infergate.chat`, …). */
type GatewayModelKind = 'chat' | 'embedding' | 'transcription' | 'services';

/**
 * A provider's settings resolved into what its model objects share: one core client, created on
 * first use, and the `Retry-After` limit. Returns the config of each kind of object.
 */
export function resolveGatewaySettings(
  settings: GatewayProviderSettings,
): (kind: GatewayModelKind) => GatewayModelConfig {
  // The key the client will send: a refusal never quotes it (a key pasted as a setting's name).
  const sentKey = () =>
    apiKeyOrEnv(typeof settings.apiKey === 'string' ? settings.apiKey : undefined);
  try {
    // (The key kept out of every refusal of the settings, their groups' too: `hedge: { [key]: 1 }`.)
    keyKeptOut(sentKey, () => {
      // A typo would do nothing: refused now, naming the closest setting (`LoadSettingError`).
      refuseUnknownOptions(
        settings,
        PROVIDER_SETTING_KEYS,
        'createGateway',
        'client option',
        NOT_SETTING_HINTS,
      );
      // The nested groups too, by core's readers (the rest is read with the client, on first use).
      readHedge(settings.hedge, 'client option');
      readCircuitBreaker(settings.circuitBreaker);
    });
  } catch (error) {
    throw mapGatewayError(error, SETTINGS_CONTEXT);
  }
  const client = lazyGatewayClient(settings);
  const maxRetryAfterMs = settings.maxRetryAfterMs ?? RETRY_DEFAULTS.maxRetryAfterMs;
  const streamUsage = settings.streamUsage !== false;
  return (kind) => ({
    provider: `infergate.${kind}`,
    client,
    maxRetryAfterMs,
    streamUsage,
    sentKey,
  });
}

function lazyGatewayClient(settings: GatewayProviderSettings): () => GatewayClient {
  let client: GatewayClient | undefined;
  return () => {
    if (client !== undefined) return client;
    // Core reads INFERGATE_BASE_URL / INFERGATE_API_KEY when a setting is not given, never
    // throwing (no `process` on Workers, Deno without --allow-env): a missing one fails the call
    // with configuration_error, mapped to LoadSettingError / LoadAPIKeyError.
    const { baseURL } = settings;
    try {
      // Undefined settings mean core's defaults. Messages about the base URL and key name them
      // as this provider's settings (`createGateway({ baseURL })`), not core's.
      client = createGatewayClient(
        withSettingNames(clientOptionsOf(settings), {
          where: 'createGateway',
          baseURL: 'baseURL',
          apiKey: 'apiKey',
        }),
      );
    } catch (error) {
      throw mapGatewayError(error, {
        ...SETTINGS_CONTEXT,
        url: baseURL ?? '',
      });
    }
    return client;
  };
}

/**
 * The client's options: every setting given, under its own name (undefined: core's default), and
 * the headers with our user agent, which every request then carries unless a call gives its own.
 */
function clientOptionsOf(settings: GatewayProviderSettings): GatewayClientOptions {
  const options: Record<string, unknown> = {};
  for (const key of PROVIDER_SETTING_KEYS) {
    if (settings[key] !== undefined) options[key] = settings[key];
  }
  options.headers = withUserAgent(settings.headers, true);
  return options as GatewayClientOptions;
}

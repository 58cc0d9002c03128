// docs/gateway-protocol.md §2.3 (headers a call adds), §2.5 (its deadline), §10.5 (its retries).
import { GatewayError } from '../errors/errors';
import { quotedName } from '../errors/escape-control';
import { refuseAuthorization } from './authorization-header';
import {
  checkGroup,
  closestOption,
  type GatewayHeaders,
  headerRecord,
  kindOf,
  type OptionGroup,
  type OptionPlace,
  optionErrorCode,
  optionKeys,
  refusal,
  STEERING_OPTIONS,
  type SteeringOptions,
  TIMEOUT_OPTIONS,
  unknownOptionError,
} from './option-groups';
import { readSteeringValues } from './steering-option-values';

export interface CallOptions {
  signal?: AbortSignal;
  /** Headers of this call's requests, over the client's (see `GatewayHeaders`). */
  headers?: GatewayHeaders;
  /** Overrides the client's `timeoutMs` for this call (a finite number > 0; clamped to 2^31 − 1). */
  timeoutMs?: number;
  /** Overrides the client's `maxRetries` for this call (an integer ≥ 0; `0`: one attempt). */
  maxRetries?: number;
  /**
   * Service calls (embeddings, translation, OCR, transcription): called with the status and
   * headers of each successful answer, once its body was read (a batch of `embedMany` calls it
   * once per request). Chat results carry their headers themselves.
   */
  onResponse?: (response: GatewayResponseInfo) => void;
}

/** What `CallOptions.onResponse` is told about one successful answer. */
export interface GatewayResponseInfo {
  status: number;
  headers: Headers;
  /** The parsed body (a service's JSON answer) or the text of a `text` answer. */
  body: unknown;
}

/** Every call's options; `maxRetries` takes the client's default, so it has none here. */
export const CALL_OPTIONS: OptionGroup<CallOptions> = {
  name: 'call options',
  fields: {
    signal: {},
    headers: { kind: 'headers' },
    timeoutMs: TIMEOUT_OPTIONS.fields.timeoutMs,
    maxRetries: { kind: 'integer', min: 0 },
    onResponse: { kind: 'function' },
  },
};

/**
 * Per-call options are checked like the client's, before anything is queued: once per public
 * call, where it begins (the client's `#run`, the chat entries); what it calls trusts them. `call`
 * names the public call, whose keys (`CALL_KEYS`) are the only ones it takes: a key of another
 * call would do nothing here (the chat entries give none: a chat call's, a stream's keys).
 */
export function checkCallOptions(options: CallOptions | undefined, call: CallName = 'chat'): void {
  // (None given, `null` too: nothing to check.)
  if (options == null) return;
  if (typeof options !== 'object') {
    throw new GatewayError({
      code: 'invalid_request_error',
      message: `call options must be an object, got ${typeof options}`,
      field: 'options',
    });
  }
  // A key this call does not read is a typo, or another call's, that would do nothing: refused,
  // naming the closest key it reads (or the calls that read it). By key: nothing built to pass.
  const known = CALL_KEYS[call];
  for (const key in options) {
    if (!known.includes(key) && Object.hasOwn(options, key))
      throw unknownCallOption(key, call, options);
  }
  // Every option of a kind by its rule (`onResponse` that is no function was dropped unseen); a
  // bad one is an `invalid_request_error`, as every call option's (the code follows the place).
  checkGroup(CALL_OPTIONS, options, 'call option', '');
  // Before the call's first request (its catalog read too): the key is the client's.
  if (options.headers !== undefined) refuseAuthorization(headerRecord(options.headers));
  const { signal, capabilities } = options as CallOptions & { capabilities?: unknown };
  readCapabilityList(capabilities, 'call option');
  // The steering options' and `structuredOutput`'s values, whether or not the call is steered: a
  // typo in them (`methods: ['json_scheme']`, `hedge: null`) is refused, not left to do nothing.
  readSteeringValues(options as SteeringOptions, 'call option');
  if (signal !== undefined && !isAbortSignal(signal)) {
    throw refusal('call option', 'signal', `must be an AbortSignal, got ${kindOf(signal)}`);
  }
}

/**
 * Where request fields came from, for an adapter that passes its own on to a call's request
 * (LangChain's `modelKwargs`, the AI SDK's `providerOptions.infergate`): how a refusal names the
 * object (`where`), its place (the code), the options the adapter itself takes there (`takes`,
 * passed) and where one given there goes (`goes`: a phrase).
 */
export interface RequestFieldsSource {
  readonly where: string;
  readonly place: OptionPlace;
  readonly takes?: readonly string[];
  goes(option: string): string;
}

/**
 * Refuses a request field named as one of `call`'s own options (`CALL_KEYS`: `signal`,
 * `timeoutMs`, `headers`, `hedge`, `fallbackModels`…), given in the request (the first argument)
 * instead of the call options (the second): sent as a field, it would reach the gateway and do
 * nothing (no abort, no deadline). Refused before anything is sent, naming the field and where it
 * goes (`from`: an adapter's object, its words); `chat`'s request refuses `chatStream`'s own
 * options too (`streamUsage`, `assemble`, `rawChunks`, `onHeaders`: `CALL_KEYS`). A request's
 * other fields pass (wire names are snake_case: LiteLLM's `timeout`, `fallbacks`, `api_key` are
 * sent).
 */
export function refuseCallOptionsInRequest(
  request: unknown,
  call: CallName,
  from?: RequestFieldsSource,
): void {
  if (typeof request !== 'object' || request === null) return;
  const known = CALL_KEYS[call];
  // (By the request's keys, a few: each looked up in the call's list, nothing built.)
  for (const key in request) {
    if (!Object.hasOwn(request, key)) continue;
    if ((request as Record<string, unknown>)[key] === undefined) continue;
    if (known.includes(key)) {
      if (from?.takes?.includes(key) !== true) throw callOptionInRequest(key, call, from);
    } else if (call === 'chat' && CALL_KEYS.chatStream.includes(key)) {
      // A stream's own option (`streamUsage`, `assemble`…) given to `chat`: sent, it would do
      // nothing either (`chat` reads none of them as an option).
      throw streamOptionInChatRequest(key);
    }
  }
}

/**
 * Refuses a request's `stream` that the call would not honour: the call sets it (`chat` answers
 * whole and sends none, `chatStream` sends `true`), so `chat({ stream: true })` would quietly
 * answer whole. The value the call means (`false` to `chat`, `true` to `chatStream`) passes.
 */
export function refuseStreamNotTaken(stream: unknown, call: 'chat' | 'chatStream'): void {
  // (`null`: not given, as every optional request field's.)
  if (stream == null || stream === (call === 'chatStream')) return;
  throw new GatewayError({
    code: 'invalid_request_error',
    message: `\`stream: ${typeof stream === 'boolean' ? stream : kindOf(stream)}\` in the ${call} request does nothing (the call sets it): call \`client.${call === 'chat' ? 'chatStream' : 'chat'}(request)\`, or leave \`stream\` out`,
    field: 'stream',
  });
}

/** The refusal of `chatStream`'s own call option `key` given in `chat`'s request. */
function streamOptionInChatRequest(key: string): GatewayError {
  return new GatewayError({
    code: optionErrorCode('call option'),
    message:
      `\`${key}\` in the chat request is a call option of chatStream, not a request field: ` +
      `\`chat\` does not stream; give it to a stream in its call options (second argument): ` +
      `\`client.chatStream(request, { ${key} })\``,
    field: key,
  });
}

/** The refusal of call option `key` given in `call`'s request (built only then). */
function callOptionInRequest(
  key: string,
  call: CallName,
  from: RequestFieldsSource | undefined,
): GatewayError {
  const where = from?.where ?? `the ${call} request`;
  const goes =
    from?.goes(key) ??
    // (Taken by chat, for an adapter's one options object, but only service answers tell it.)
    (key === 'onResponse' && call.startsWith('chat')
      ? `${call} does not call it: read the result's \`headers\` (service calls tell onResponse)`
      : `pass it in the call options (second argument): \`client.${call}(request, { ${key} })\``);
  return new GatewayError({
    code: optionErrorCode(from?.place ?? 'call option'),
    message: `\`${key}\` in ${where} is a call option, not a request field: ${goes}`,
    field: key,
  });
}

/**
 * Known capabilities as given (a chat call's, an adapter's model setting): a list, else refused
 * naming `capabilities` and the place (`'chat'` would pass the gate as a string's letters).
 */
export function readCapabilityList(
  capabilities: unknown,
  place: OptionPlace,
): readonly string[] | undefined {
  if (capabilities !== undefined && !Array.isArray(capabilities)) {
    throw refusal(place, 'capabilities', `must be a list, got ${kindOf(capabilities)}`);
  }
  return capabilities;
}

/** The public calls of a client, each with its own options (`CALL_KEYS`). */
export type CallName =
  | 'chat'
  | 'chatStream'
  | 'embed'
  | 'embedMany'
  | 'translate'
  | 'ocr'
  | 'transcribe'
  | 'models'
  | 'services'
  | 'model'
  | 'resolveModel'
  | 'requireCapabilities'
  | 'checkModel'
  | 'embeddingEngines'
  | 'resolveEmbeddingEngine';

/**
 * Every call's options (`CallOptions`, the type each call's options extend); `onResponse` too,
 * which only the service calls tell: an adapter gives one call's options to its look-ups.
 */
const COMMON = optionKeys(CALL_OPTIONS);
/** A chat call's (`ChatCallOptions`): its steering and the capabilities the caller knows. */
const CHAT = [...COMMON, ...optionKeys(STEERING_OPTIONS), 'capabilities'];
/**
 * The keys each public call reads, declared once: a key another call reads is refused by this one,
 * saying whose it is (`dimensions` given to `chat`; a stream's `assemble` given to `chat`).
 */
export const CALL_KEYS: { readonly [Call in CallName]: readonly string[] } = {
  chat: CHAT,
  chatStream: [...CHAT, 'assemble', 'streamUsage', 'rawChunks', 'onHeaders'],
  embed: COMMON,
  embedMany: [...COMMON, 'model', 'inputType', 'dimensions', 'maxConcurrency'],
  translate: COMMON,
  ocr: COMMON,
  transcribe: COMMON,
  models: COMMON,
  services: COMMON,
  model: COMMON,
  resolveModel: COMMON,
  requireCapabilities: COMMON,
  checkModel: [...COMMON, 'known', 'purpose', 'anyOf'],
  embeddingEngines: COMMON,
  resolveEmbeddingEngine: COMMON,
};

/**
 * The refusal of a key `call` does not read (built only then): the calls that read it, when some
 * does, else the closest key this call reads.
 */
function unknownCallOption(key: string, call: CallName, options: object): GatewayError {
  // (Options given by mistake may hold the API key: not quoted in the key refused.)
  const apiKey: unknown = (options as { apiKey?: unknown }).apiKey;
  const secret = typeof apiKey === 'string' ? apiKey : undefined;
  const readers = (Object.keys(CALL_KEYS) as CallName[]).filter(
    (name) => name !== call && CALL_KEYS[name].includes(key),
  );
  const known = CALL_KEYS[call];
  const where = `${call} options`;
  if (readers.length === 0) return unknownOptionError(key, known, where, 'call option', {}, secret);
  const closest = closestOption(key, known);
  const instead =
    closest === undefined ? '' : `; did you mean ${quotedName(closest, 60, undefined)}?`;
  const whose = `${quotedName(key, 60, secret)} is an option of ${readers.join(', ')}, not of ${call}${instead}`;
  return unknownOptionError(key, known, where, 'call option', { [key]: whose }, secret);
}

/** An AbortSignal, also one from another realm (checked by shape, not by `instanceof`). */
function isAbortSignal(value: unknown): value is AbortSignal {
  const signal = value as Partial<AbortSignal> | null;
  return (
    typeof signal === 'object' &&
    signal !== null &&
    typeof signal.aborted === 'boolean' &&
    typeof signal.addEventListener === 'function' &&
    typeof signal.removeEventListener === 'function'
  );
}

// docs/gateway-protocol.md §4.1 (unknown request fields reach the model server unchanged).
import {
  refuseCallOptionsInRequest,
  refuseClientOptionsInRequestFields,
  refuseNearMisses,
  refuseOptionsInRequestFields,
} from '@infergate/core/internal';
import { refuseChatOpenAINames } from './chat-openai-names';
import {
  CLIENT_OPTION_HINTS,
  LANGCHAIN_KEYS,
  OUR_CALL_OPTIONS,
  OUR_FIELDS,
} from './gateway-chat-model-options';

/**
 * Call options that LangChain, LangGraph or this model read themselves, and the structured-output
 * options `createAgent` sets for other providers (`outputConfig`, `responseSchema`): never sent
 * as request fields.
 */
const NOT_REQUEST_FIELDS = new Set([
  ...LANGCHAIN_KEYS,
  ...OUR_CALL_OPTIONS,
  // createAgent's native structured output for Anthropic / Google models
  'outputConfig',
  'responseSchema',
]);

/** A name in snake_case (`maxTokens` → `max_tokens`, `baseURL` → `base_url`). */
const snake = (key: string) =>
  key.replace(
    /([a-z0-9])([A-Z]+)/g,
    (_, before: string, upper: string) => `${before}_${upper.toLowerCase()}`,
  );

/** The model's settings sent under a wire name (`maxTokens` → `max_tokens`). */
const SENT = [
  'temperature',
  'maxTokens',
  'topP',
  'frequencyPenalty',
  'presencePenalty',
  'logitBias',
  'user',
];

/**
 * What a call's options refuse, each with where it goes: core's client options, the model's own
 * settings (a call would drop them: LangChain keeps unknown keys), and our names spelled in
 * snake_case where that is no wire name (`model_kwargs`, `api_key`: else sent as request fields).
 * A call's `apiKey` is left alone: ignored, as by `ChatOpenAI`.
 */
const CALL_HINTS: Record<string, string> = { ...CLIENT_OPTION_HINTS };
for (const key of OUR_FIELDS) {
  if (NOT_REQUEST_FIELDS.has(key) || key === 'apiKey') continue;
  CALL_HINTS[key] = SENT.includes(key)
    ? `a model setting: give it to the model, or per call \`modelKwargs: { ${snake(key)}: … }\``
    : 'a model setting: give it to the model (`new GatewayChatModel({ … })`)';
}
for (const key of [...OUR_FIELDS, ...OUR_CALL_OPTIONS, 'maxRetries']) {
  const spelled = snake(key);
  if (spelled !== key && !SENT.includes(key) && key !== 'reasoningEffort') {
    CALL_HINTS[spelled] = `did you mean \`${key}\`?`;
  }
}

/**
 * The rule for options given to a call (`invoke`, `stream`, `withConfig`) or bound by
 * `bindTools`: a snake_case key that is not ours or LangChain's is a request field (sent by
 * `requestFieldsOf`); a near miss of ours, a hinted key (one above) or a near miss of one is
 * refused, as is a ChatOpenAI name we do not take. `bindTools` takes only the user's kwargs, so
 * there any other key (`think`) is refused too, pointing to `modelKwargs`; a call's options also
 * carry LangGraph's own keys, which pass.
 */
export function refuseCallOptions(options: object, where: string, bound = false): void {
  // (Core's check finds near misses of ours and of the hinted names; a call's `apiKey` passes.)
  // ChatOpenAI's names first: each is refused saying what to use (`verbosity`, not `verbose`).
  refuseChatOpenAINames(options, 'GatewayChatModel', 'call option');
  refuseNearMisses(options, OUR_CALL_OPTIONS, CALL_THEIRS, where, 'call option', CALL_HINTS);
  // A snake_case key is a request field, unless it spells a client option (`circuit_breaker`).
  refuseClientOptionsInRequestFields(options, where, 'call option', callOptionGoes);
  refuseSteeringKwargs((options as { modelKwargs?: unknown }).modelKwargs, 'call option');
  if (!bound) return;
  for (const [key, value] of Object.entries(options)) {
    if (value === undefined || key.includes('_') || NOT_REQUEST_FIELDS.has(key)) continue;
    if (key === 'apiKey') continue;
    const hint = `not a call option: send a request field in snake_case, or with \`modelKwargs: { ${key}: … }\``;
    refuseNearMisses({ [key]: value }, [], [], where, 'call option', { [key]: hint });
  }
}

/** LangChain's keys, and a call's `apiKey` (ignored, as by `ChatOpenAI`). */
const CALL_THEIRS = [...LANGCHAIN_KEYS, 'apiKey'];

/**
 * A call's request fields: its snake_case keys that are none of ours or LangChain's
 * (`max_tokens`, `top_k`, createAgent's `modelSettings`), bound or given, each kept on its own so
 * that a call's `modelKwargs` (which LangChain puts in place of a bound one) drops none of them.
 */
export function requestFieldsOf(options: object): Record<string, unknown> | undefined {
  const fields = Object.entries(options).filter(
    ([key, value]) => value !== undefined && key.includes('_') && !NOT_REQUEST_FIELDS.has(key),
  );
  return fields.length > 0 ? Object.fromEntries(fields) : undefined;
}

/**
 * Core's steering and timeout options in `modelKwargs` (`fallbackModels`, `fallback_models`,
 * `fallbackModel`), a model's or a call's, and core's client options (`circuitBreaker`) and the
 * model's `timeout`: sent as they are, the model server would get them, nothing steered. Refused
 * by core's rule, naming where each goes.
 */
export function refuseSteeringKwargs(
  kwargs: unknown,
  place: 'call option' | 'model setting',
): void {
  if (typeof kwargs !== 'object' || kwargs === null) return;
  const where =
    place === 'call option' ? 'call options.modelKwargs' : 'GatewayChatModel modelKwargs';
  refuseOptionsInRequestFields(kwargs, where, place, goes, NOT_IN_KWARGS);
  // A snake_case spelling of a client option (`circuit_breaker`): core's rule, naming the option.
  refuseClientOptionsInRequestFields(
    kwargs,
    where,
    place,
    place === 'call option' ? callOptionGoes : clientOptionGoes,
  );
  refuseOwnKeysInKwargs(kwargs, where, place);
  // Core's other call options (`onResponse`, a stream's `rawChunks`): core's rule, in our words.
  refuseCallOptionsInRequest(kwargs, 'chatStream', { where, place, goes: coreCallOptionGoes });
}

/** Where one of core's call options given in `modelKwargs` goes: ours to the call, others nowhere. */
function coreCallOptionGoes(option: string): string {
  return OUR_CALL_OPTIONS.includes(option)
    ? `pass it to invoke's options`
    : 'GatewayChatModel does not take it';
}

/**
 * Our keys and LangChain's whose names are also request fields (`temperature`, `stop`, `tools`,
 * OpenAI's `store`, LiteLLM's `tags` and `cache`), and LangGraph's runtime keys that are not ours
 * to judge: sent from `modelKwargs` as given. Snake_case keys are request fields (`tool_choice`).
 */
const SENT_AS_NAMED = new Set([
  'model',
  'temperature',
  'stop',
  'seed',
  'user',
  'metadata',
  'tools',
  'store',
  'tags',
  'cache',
  'context',
  'writer',
  'version',
  'promptIndex',
]);

/** Of `keys`, those that are no request field, by their names in lower case. */
const notSent = (keys: readonly string[]) =>
  new Map(
    keys.filter((k) => !k.includes('_') && !SENT_AS_NAMED.has(k)).map((k) => [k.toLowerCase(), k]),
  );

/** The model's fields and the call options (ours and LangChain's) that are no request field. */
const FIELDS_NOT_SENT = notSent([...OUR_FIELDS, ...LANGCHAIN_KEYS]);
const CALL_OPTIONS_NOT_SENT = notSent([...OUR_CALL_OPTIONS, ...LANGCHAIN_KEYS]);

/**
 * The model's own fields and call options in `modelKwargs` whose names are no request field's
 * (`apiKey`, `baseURL`, `headers`, `maxRetries`, `maxTokens`: the wire reads `max_tokens`), by
 * their names in any case (`apikey`): sent as they are, each would do nothing, and an API key would
 * sit in the request's body. Refused naming where each goes (never its value). Names that are
 * request fields too (`temperature`, `stop`, `user`, `tools`), snake_case keys and unknown provider
 * fields pass.
 */
function refuseOwnKeysInKwargs(kwargs: object, where: string, place: RefusalPlace): void {
  for (const [key, value] of Object.entries(kwargs)) {
    if (value === undefined) continue;
    const lower = key.toLowerCase();
    // (Snake_case keys are request fields; core's rule refused client options spelled so.)
    if (key.includes('_')) continue;
    const field = FIELDS_NOT_SENT.get(lower);
    const option = CALL_OPTIONS_NOT_SENT.get(lower);
    if (field === undefined && option === undefined) continue;
    const asField = field !== undefined && (place === 'model setting' || option === undefined);
    const name = asField ? field : option!;
    // (`maxTokens`: the request field is `max_tokens`, sent from `modelKwargs` as given.)
    const wire = WIRE_NAMED.includes(name) ? `, or send \`${snake(name)}\` in \`modelKwargs\`` : '';
    const goes = asField
      ? `a model field: give it to \`new GatewayChatModel({ ${field} })\`${wire}`
      : `a call option: pass it to invoke's options${wire}`;
    const hint = `\`${name}\` is no request field: ${goes}`;
    refuseNearMisses({ [key]: value }, [], [], where, place, { [key]: hint });
  }
}

type RefusalPlace = 'call option' | 'model setting';

/**
 * Where a client option spelled in snake_case in `modelKwargs` goes: those a model does not take
 * to a client, the others to the model (`maxConcurrency`).
 */
function clientOptionGoes(option: string): string {
  return Object.hasOwn(CLIENT_OPTION_HINTS, option)
    ? CLIENT_OPTION_HINTS[option as keyof typeof CLIENT_OPTION_HINTS]
    : `a model field: give it to \`new GatewayChatModel({ ${option} })\``;
}

/**
 * Where a client option spelled in snake_case in a call's options or `modelKwargs` goes: one that
 * is also a call option (`streamUsage`) to the call, the others as `clientOptionGoes` says.
 */
function callOptionGoes(option: string): string {
  return OUR_CALL_OPTIONS.includes(option)
    ? `a call option: pass \`{ ${option} }\` with the call`
    : clientOptionGoes(option);
}

/** Settings sent under their snake_case names (`maxTokens` → `max_tokens`). */
const WIRE_NAMED = [...SENT, 'reasoningEffort'];

/** Core's client options (`circuitBreaker`) and the model's `timeout`: no request fields either. */
const NOT_IN_KWARGS = [...Object.keys(CLIENT_OPTION_HINTS), 'timeout'];

/** Where an option refused in `modelKwargs` goes instead. */
function goes(option: string): string {
  if (option === 'timeout') return 'a model setting or a call option, not in `modelKwargs`';
  if (Object.hasOwn(CLIENT_OPTION_HINTS, option)) {
    return CLIENT_OPTION_HINTS[option as keyof typeof CLIENT_OPTION_HINTS];
  }
  return 'give it to the model or the call, not in `modelKwargs`';
}

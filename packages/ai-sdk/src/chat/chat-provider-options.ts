// docs/gateway-protocol.md §4.1 (extra request fields, reasoning effort), §4.7 (a call's steering,
// checked by core), §5.6 (usage asked for in a stream).
import { STEERING_OPTIONS, type SteeringOptions } from '@infergate/core';
import {
  keyKeptOut,
  readSteering,
  refuseCallOptionsInRequest,
  refuseClientOptionsInRequestFields,
  refuseNearMisses,
} from '@infergate/core/internal';
import { z } from 'zod/v4';
import {
  INSTEAD_OF_CLIENT_OPTION,
  PROVIDER_SETTING_KEYS,
} from '../provider/gateway-provider-settings';
import { optionRefusal } from '../shared/option-refusal';
import {
  infergateOptionsParser,
  PROVIDER_OPTIONS_KEY,
  withoutNullOptions,
} from '../shared/parse-infergate-options';
import { MODEL_SETTING_KEYS } from './gateway-chat-options';

/** A core option's type as ai's `providerOptions` (JSON values) holds it: lists are plain arrays. */
type JsonOption<V> = V extends readonly (infer U)[]
  ? U[]
  : V extends object
    ? { [K in keyof V]: JsonOption<V[K]> | (undefined extends V[K] ? undefined : never) }
    : V;

/**
 * What a chat call's `providerOptions.infergate` may set besides request fields: core's `steering`
 * group (`fallbackModels`, `firstChunkTimeoutMs`, `chunkTimeoutMs`, `hedge`; each over the model's
 * setting, `fallbackModels: []` and `hedge: false` turning the model's off), `streamUsage`,
 * `reasoningEffort`, `textVerbosity` and `strictJsonSchema`.
 */
export type GatewayChatOptions = Flat<
  JsonOption<SteeringOptions> & {
    /** This call's `streamUsage` (over the provider's): `false` sends no `stream_options`. */
    streamUsage?: boolean | undefined;
    /**
     * Sent as `reasoning_effort`, the value as given (over the `reasoning` call option and a raw
     * `reasoning_effort` field): for values the model server knows and `reasoning` has not (`'max'`
     * sent as `'max'`, …).
     */
    reasoningEffort?: string | undefined;
    /** Sent as `verbosity` (`'low'`, `'medium'`, `'high'`), as `@ai-sdk/openai-compatible` sends it. */
    textVerbosity?: string | undefined;
    /** This call's `strict` with a schema (over the model's `strictJsonSchema`). */
    strictJsonSchema?: boolean | undefined;
  }
>;

/** One object type of an intersection (how editors and type tests show it). */
type Flat<T> = { [K in keyof T]: T[K] };

const STEERING_KEYS = Object.keys(STEERING_OPTIONS.fields);

/**
 * The settings of `providerOptions.infergate`, built from core's descriptor: the steering options
 * are passed on as given and checked by core's one reader (the same refusal as from core, LangChain
 * or MCP: `invalid_request_error`, as `InvalidArgumentError`); ours are typed here.
 */
const chatCallSettingsSchema = z.object({
  ...Object.fromEntries(STEERING_KEYS.map((key) => [key, z.unknown().optional()])),
  streamUsage: z.boolean().optional(),
  reasoningEffort: z.string().optional(),
  textVerbosity: z.string().optional(),
  strictJsonSchema: z.boolean().optional(),
});

export const CALL_SETTINGS: readonly string[] = Object.keys(chatCallSettingsSchema.shape);

const parseChatCallSettings = infergateOptionsParser(chatCallSettingsSchema, {
  // (Never used: core's reader refuses a bad steering value, in its own words.)
  ...Object.fromEntries(STEERING_KEYS.map((key) => [key, "what core's SteeringOptions take"])),
  streamUsage: 'true or false',
  // (A null is no "unset" here: core sends no null `reasoning_effort`, the server's default applies.)
  reasoningEffort: 'a string such as "low", "medium" or "high" (null is not sent: leave it out)',
  textVerbosity: 'a string such as "low", "medium" or "high"',
  strictJsonSchema: 'true or false',
});

/**
 * The settings a `null` leaves unset (the model's or the provider's value applies), as LangChain's
 * call options and ai's own call settings take it; `reasoningEffort: null` is refused, saying so.
 */
const NULL_NOT_GIVEN = CALL_SETTINGS.filter((key) => key !== 'reasoningEffort');

/** Core's client options `createGateway` does not take (`ai` does the retries). */
const NOT_PROVIDER_SETTINGS = Object.keys(INSTEAD_OF_CLIENT_OPTION);

/**
 * Core's client options and the model's settings that are no call setting here, each with where
 * it goes: given in `providerOptions.infergate` (or a near miss: `apikey`, `timeout`), one would
 * be sent to the model server as a request field.
 */
const ELSEWHERE: Readonly<Record<string, string>> = Object.fromEntries([
  ...PROVIDER_SETTING_KEYS.filter((key) => !CALL_SETTINGS.includes(key)).map((key) => [
    key,
    'a provider setting: pass it to `createGateway`',
  ]),
  ...NOT_PROVIDER_SETTINGS.map((key) => [key, `not taken here ${INSTEAD_OF_CLIENT_OPTION[key]}`]),
  ...MODEL_SETTING_KEYS.filter((key) => !CALL_SETTINGS.includes(key)).map((key) => [
    key,
    'a model setting: pass it to the model factory (`infergate(modelId, { … })`)',
  ]),
  // Fields the call itself sets, which a request field cannot replace: refused, not dropped.
  [
    'model',
    'the model id: pass it to the model factory (`infergate(modelId)`), or use `fallbackModels`',
  ],
  ['messages', 'the prompt: pass `prompt` or `messages` to generateText / streamText'],
  ['stream', 'set by the call: generateText sends none, streamText `stream: true`'],
  // ai's own call settings, which it maps and acts on: as a request field, one would bypass ai's
  // running of the tools and its check of the answer (and the call's own value be overridden).
  ['tools', "ai's own: pass `tools` to generateText / streamText (ai runs them)"],
  ['tool_choice', "ai's own: pass `toolChoice` to generateText / streamText"],
  // OpenAI's older names of the same two: as fields, they would bypass ai's running of the tools too.
  ['functions', "ai's own: pass `tools` to generateText / streamText (ai runs them)"],
  ['function_call', "ai's own: pass `toolChoice` to generateText / streamText"],
  ['response_format', "ai's own: pass `output: Output.object({ schema })` or `Output.json()`"],
  // Settings of ours with no request field of that name: snake_case, they would be sent and do
  // nothing (`reasoning_effort` and `verbosity` are wire fields, and core refuses its steering
  // options' own).
  ...['streamUsage', 'strictJsonSchema', 'textVerbosity'].map((key) => [
    key.replace(/[A-Z]/g, (letter) => `_${letter.toLowerCase()}`),
    `did you mean \`${key}\`?`,
  ]),
]);

/** Where one of core's client options goes (named when its snake_case spelling is refused). */
function clientOptionGoes(option: string): string {
  if (NOT_PROVIDER_SETTINGS.includes(option))
    return `a client option \`createGateway\` does not take ${INSTEAD_OF_CLIENT_OPTION[option]}`;
  if (CALL_SETTINGS.includes(option)) return `a setting here: give it as \`${option}\``;
  return 'a provider setting: pass it to `createGateway`';
}

/** Where one of core's call options given in `providerOptions.infergate` goes (ai's, or nowhere). */
function coreCallOptionGoes(option: string): string {
  return option === 'signal'
    ? 'pass `abortSignal` to generateText / streamText'
    : 'this provider does not take it';
}

/**
 * A chat call's `providerOptions.infergate`, split into its settings and its request fields. A near
 * miss of a setting (`fallbackModel`) or one of core's client options (`circuitBreaker`) is refused
 * (`InvalidArgumentError`), not sent as a field.
 */
export function readChatProviderOptions(
  providerOptions: Record<string, unknown> | undefined,
  sentKey?: () => string | undefined,
): {
  settings: GatewayChatOptions;
  extraFields: Record<string, unknown> | undefined;
} {
  const given = withoutNullOptions(providerOptions?.[PROVIDER_OPTIONS_KEY], NULL_NOT_GIVEN);
  if (given === undefined || given === null) return { settings: {}, extraFields: undefined };
  // Not an object (`'fast'`, a list, 42): refused by the one check embed's options have too.
  // (The schema refuses any such value: the return is never reached.)
  if (typeof given !== 'object' || Array.isArray(given)) {
    parseChatCallSettings(providerOptions);
    return { settings: {}, extraFields: undefined };
  }
  refuseMisplacedOptions(given, 'providerOptions.infergate', sentKey, () =>
    // Core's reader, now (a `null` setting already left out, as LangChain's call options take it).
    readSteering(given as SteeringOptions, 'call option'),
  );
  const settings = (parseChatCallSettings({ [PROVIDER_OPTIONS_KEY]: given }) ??
    {}) as GatewayChatOptions;
  const extraFields = Object.fromEntries(
    Object.entries(given).filter(([name]) => !CALL_SETTINGS.includes(name)),
  );
  return { settings, extraFields };
}

/**
 * The one check of a `providerOptions.infergate` object (a call's, a message's or a part's) for
 * what is no request field: a near miss of a call setting (`fallbackModel`), a provider or model
 * setting (`timeoutMs`, `circuitBreaker`), `maxRetries`, a field the call sets or ai's own (`tools`,
 * `functions`), or a client option in snake_case (`circuit_breaker`: core's rule). Refused as
 * `InvalidArgumentError` naming the key's path from `where`; `then` runs under the same refusal
 * (the call's steering reader). A message's own fields (`name`) pass.
 */
export function refuseMisplacedOptions(
  given: object,
  where: string,
  sentKey?: () => string | undefined,
  then?: () => void,
): void {
  try {
    // (The provider's key kept out of a refusal, a group's too: `hedge: { [key]: 1 }`.)
    keyKeptOut(sentKey, () => {
      refuseNearMisses(given, CALL_SETTINGS, [], where, 'call option', ELSEWHERE);
      // A client option in snake_case (`circuit_breaker`): core's rule, naming where it goes.
      refuseClientOptionsInRequestFields(given, where, 'call option', clientOptionGoes);
      // Core's call options this provider does not take (`signal`, `onResponse`): core's rule.
      refuseCallOptionsInRequest(given, 'chatStream', {
        where,
        place: 'call option',
        takes: CALL_SETTINGS,
        goes: coreCallOptionGoes,
      });
      then?.();
    });
  } catch (error) {
    // Core names a field by its path in the object it read (`hedge.delayMs`, `fallbackModels[0]`).
    throw optionRefusal(error, (field) => `${where}.${field}`);
  }
}

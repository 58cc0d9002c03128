// docs/gateway-protocol.md §4.2 (capabilities given instead of the catalog's), §4.1 (reasoning sent back),
// §4.7 (a model's steering: core's options).
import { type ModelCapability, STEERING_OPTIONS, type SteeringOptions } from '@infergate/core';
import { optionKeys } from '@infergate/core/internal';

/**
 * A chat model id as listed by `GET /models`: `my/<name>`, `<pool>/<model>` or a network model id.
 * The catalog is live, so any string is accepted; `gateway.models()` lists the current ids.
 */
export type GatewayChatModelId = string & {};

/**
 * Per-model settings: the second argument of `gateway(modelId, settings)`. Besides its own, core's
 * steering options (`SteeringOptions`): `fallbackModels` (core gates and walks each listed model
 * within one `doGenerate` / `doStream`), `firstChunkTimeoutMs`, `chunkTimeoutMs` and `hedge`,
 * checked when the model is made (`LoadSettingError`); a call's `providerOptions.infergate` wins
 * field by field.
 */
export interface GatewayChatModelSettings extends SteeringOptions {
  /**
   * The model's capabilities, when you know them. Given, they replace the catalog look-up
   * (no `GET /models` before the first call). Missing optional capabilities are refused before
   * any chat request is sent. Not used for a steered call (`fallbackModels`, a stall timeout, a
   * `hedge`, or a schema: core plans it over the catalog for every model).
   */
  capabilities?: readonly ModelCapability[];
  /**
   * Which earlier assistant turns go back to the gateway with their reasoning, as
   * `reasoning_content`. Default (unset): the turns that made tool calls, which thinking models
   * (DeepSeek V4, Kimi K2) refuse with a 400 without it; other turns' reasoning is dropped.
   * `true`: every turn's. `false`: none.
   */
  sendReasoning?: boolean;
  /**
   * Sent as `strict` with a schema (`json_schema.strict`, or the forced tool's `strict` when core
   * asks a model by a tool call): `true` asks the model server for constrained decoding. Default:
   * not sent (the model server's default). Core checks every answer against the schema either way.
   * A call's `providerOptions.infergate.strictJsonSchema` wins.
   */
  strictJsonSchema?: boolean;
}

/**
 * Model settings the provider no longer takes, each with where its job went: named in the refusal
 * of an unknown key instead of a guess at the closest one.
 */
export const REMOVED_MODEL_SETTINGS: Readonly<Record<string, string>> = {
  fallbackToJsonObject:
    'removed: core now serves a schema on every model the way it can (json_schema, else a forced tool call, else json_object with the schema stated) and checks every answer; to pin or forbid methods, set `structuredOutput.methods`',
};

/** Every key a model's settings take: core's `steering` group and ours (any other is refused). */
export const MODEL_SETTING_KEYS: readonly string[] = [
  ...optionKeys(STEERING_OPTIONS),
  'capabilities',
  'sendReasoning',
  'strictJsonSchema',
] satisfies readonly (keyof GatewayChatModelSettings)[];

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
   * any chat request is sent. Not used for a call with `fallbackModels`: core gates every listed
   * model against the catalog.
   */
  capabilities?: readonly ModelCapability[];
  /**
   * When the model has `json_object` but not `json_schema`, send a JSON-schema request as
   * `json_object` instead of refusing it. The schema is put into the system message, an
   * `unsupported` warning is returned and the answer is validated client-side by the AI SDK
   * (e.g. `Output.object`). Default `false`: refuse.
   */
  fallbackToJsonObject?: boolean;
  /**
   * Send the reasoning of earlier assistant turns back to the gateway as `reasoning_content`
   * (for model servers that want it). Default `false`: reasoning is never sent back.
   */
  sendReasoning?: boolean;
}

/** Every key a model's settings take: core's `steering` group and ours (any other is refused). */
export const MODEL_SETTING_KEYS: readonly string[] = [
  ...optionKeys(STEERING_OPTIONS),
  'capabilities',
  'fallbackToJsonObject',
  'sendReasoning',
] satisfies readonly (keyof GatewayChatModelSettings)[];

// docs/gateway-protocol.md §4.2 (capabilities given instead of the catalog's), §4.1 (reasoning sent back),
// §4.7 (failover and stall timeouts).
import type { ModelCapability } from '@infergate/core';

/**
 * A chat model id as listed by `GET /models`: `my/<name>`, `<pool>/<model>` or a network model id.
 * The catalog is live, so any string is accepted; `gateway.models()` lists the current ids.
 */
export type GatewayChatModelId = string & {};

/** Per-model settings: the second argument of `gateway(modelId, settings)`. */
export interface GatewayChatModelSettings {
  /**
   * The model's capabilities, when you know them. Given, they replace the catalog look-up
   * (no `GET /models` before the first call). Missing optional capabilities are refused before
   * any chat request is sent.
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
  /**
   * Models to use, in order, when this one cannot serve a call (busy, unavailable, stalled before
   * its first chunk, or lacking what the call needs): core checks each against the catalog and
   * walks them within one `doGenerate` / `doStream`. With a list, core's gate replaces this
   * model's own (`capabilities` and `fallbackToJsonObject` are not used). A call's
   * `providerOptions.infergate.fallbackModels` replaces it.
   */
  fallbackModels?: readonly string[];
  /**
   * Longest wait from sending a request to the first byte of its answer, in ms (a stall moves to
   * the next `fallbackModels` entry). Replaces the provider's; a call's provider option wins.
   */
  firstChunkTimeoutMs?: number;
  /**
   * Longest silence between two chunks of a stream, in ms (a stall fails the stream with
   * `timeout`). Replaces the provider's; a call's provider option wins.
   */
  chunkTimeoutMs?: number;
}

// docs/gateway-protocol.md §4.2 (the profile the capabilities give), §4.8 (the allowed methods).
import type { StructuredOutputMethod } from '@infergate/core';
import type { ModelProfile } from '@langchain/core/language_models/profile';

/**
 * Capabilities → LangChain's model profile. `structuredOutput` tells `createAgent` to send
 * `response_format: json_schema` instead of a tool of its own; core serves that request the model's
 * way and checks the answer (§4.8). So it is true when the model lists `json_schema`, or lists
 * `json_object` but not `tools` (LangChain's tool cannot serve it, core's json_object way can),
 * each only when the model's `structuredOutput.methods` (all when not given) allows that method.
 * `imageInputs`: the catalog never says whether a model sees images (its capabilities are `chat`,
 * `streaming`, `tools`, `json_object`, `json_schema`), so it is left unknown, and is false only
 * when the model is built with `acceptsContentParts: false` (an image cannot be sent at all).
 */
export function profileFromCapabilities(
  capabilities: readonly string[] | undefined,
  acceptsContentParts: boolean,
  structuredOutputMethods?: readonly StructuredOutputMethod[],
): ModelProfile {
  if (!capabilities) return {};
  const tools = capabilities.includes('tools');
  const serves = (method: StructuredOutputMethod) =>
    capabilities.includes(method) && (structuredOutputMethods?.includes(method) ?? true);
  return {
    toolCalling: tools,
    toolChoice: tools,
    structuredOutput: serves('json_schema') || (!tools && serves('json_object')),
    ...(acceptsContentParts ? {} : { imageInputs: false }),
  };
}

/**
 * The profile of a model with a fallback list, from each listed model's capabilities (the first
 * included; undefined while one is unknown): what `createAgent` can count on whichever of them
 * answers. `toolCalling` and `toolChoice` only when every listed model has `tools`.
 * `structuredOutput` when every listed model is one `profileFromCapabilities` gives it to (core
 * serves each its own way: json_schema natively, json_object by its own rule), or when none has
 * `tools` and one at least is such a model: `createAgent`'s tool would be refused outright, its
 * `response_format` is served by the listed models that can (core skips the others).
 */
export function profileForList(
  listed: readonly (readonly string[])[] | undefined,
  acceptsContentParts: boolean,
  structuredOutputMethods?: readonly StructuredOutputMethod[],
): ModelProfile {
  if (!listed) return {};
  const each = listed.map((capabilities) =>
    profileFromCapabilities(capabilities, acceptsContentParts, structuredOutputMethods),
  );
  const tools = each.every((profile) => profile.toolCalling === true);
  const noTools = !each.some((profile) => profile.toolCalling === true);
  const native = (profile: ModelProfile) => profile.structuredOutput === true;
  return {
    toolCalling: tools,
    toolChoice: tools,
    structuredOutput: each.every(native) || (noTools && each.some(native)),
    ...(acceptsContentParts ? {} : { imageInputs: false }),
  };
}

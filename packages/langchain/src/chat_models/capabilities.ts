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

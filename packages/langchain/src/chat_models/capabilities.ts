// docs/gateway-protocol.md §4.2 (the profile the capabilities give), §4.8 (the allowed methods).
import type { StructuredOutputMethod } from '@infergate/core';
import type { ModelProfile } from '@langchain/core/language_models/profile';

/**
 * Capabilities → LangChain's model profile. `structuredOutput` means native JSON-schema output:
 * `createAgent` then sends `response_format: json_schema` instead of a tool, so it needs the
 * capability and the model's `structuredOutput.methods` (all when not given) to allow json_schema.
 */
export function profileFromCapabilities(
  capabilities: readonly string[] | undefined,
  acceptsContentParts: boolean,
  structuredOutputMethods?: readonly StructuredOutputMethod[],
): ModelProfile {
  if (!capabilities) return {};
  const tools = capabilities.includes('tools');
  return {
    toolCalling: tools,
    toolChoice: tools,
    structuredOutput:
      capabilities.includes('json_schema') &&
      (structuredOutputMethods?.includes('json_schema') ?? true),
    imageInputs: acceptsContentParts,
  };
}

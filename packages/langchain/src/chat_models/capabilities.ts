// docs/gateway-protocol.md §4.2 (the profile the capabilities give).
import type { ModelProfile } from '@langchain/core/language_models/profile';

/**
 * Capabilities → LangChain's model profile. `structuredOutput` means native JSON-schema output:
 * `createAgent` then sends `response_format: json_schema` instead of a tool.
 */
export function profileFromCapabilities(
  capabilities: readonly string[] | undefined,
  acceptsContentParts: boolean,
): ModelProfile {
  if (!capabilities) return {};
  const tools = capabilities.includes('tools');
  return {
    toolCalling: tools,
    toolChoice: tools,
    structuredOutput: capabilities.includes('json_schema'),
    imageInputs: acceptsContentParts,
  };
}

// docs/gateway-protocol.md §4.2 (the capability each structured-output method needs; the profile they give).
import type { ModelCapability } from '@infergate/core';
import type { ModelProfile } from '@langchain/core/language_models/profile';

export type StructuredOutputMethod = 'jsonSchema' | 'jsonMode' | 'functionCalling';

/** The capability each structured-output method needs. */
export const METHOD_CAPABILITY: Record<StructuredOutputMethod, ModelCapability> = {
  jsonSchema: 'json_schema',
  jsonMode: 'json_object',
  functionCalling: 'tools',
};

/** The structured-output method a model serves best: json_schema, then tools, then json_object. */
export function defaultStructuredOutputMethod(
  capabilities: readonly string[],
): StructuredOutputMethod | undefined {
  if (capabilities.includes('json_schema')) return 'jsonSchema';
  if (capabilities.includes('tools')) return 'functionCalling';
  if (capabilities.includes('json_object')) return 'jsonMode';
  return undefined;
}

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

import type { GatewayModel, ModelCapability } from '@infergate/core';
import { capabilityError, missingCapabilities } from '@infergate/core/internal';
import type { ModelProfile } from '@langchain/core/language_models/profile';

export type StructuredOutputMethod = 'jsonSchema' | 'jsonMode' | 'functionCalling';

/** The capability each structured-output method needs. */
export const METHOD_CAPABILITY: Record<StructuredOutputMethod, ModelCapability> = {
  jsonSchema: 'json_schema',
  jsonMode: 'json_object',
  functionCalling: 'tools',
};

/** Known capabilities plus, when the catalog was loaded, the models to name in a refusal. */
export interface KnownCapabilities {
  model: string;
  capabilities: readonly string[];
  catalog?: readonly GatewayModel[];
}

/** Throws core's capability refusal when `known` lacks one of `needs`. */
export function assertCapabilities(
  known: KnownCapabilities,
  needs: readonly ModelCapability[],
  purpose: string,
): void {
  if (missingCapabilities(known.capabilities, needs).length === 0) return;
  throw capabilityError({ ...known, needs, purpose });
}

/** Throws unless the model has at least one of `anyOf` (used for the default structured-output method). */
export function assertAnyCapability(
  known: KnownCapabilities,
  anyOf: readonly ModelCapability[],
  purpose: string,
): void {
  if (missingCapabilities(known.capabilities, anyOf).length < anyOf.length) return;
  throw capabilityError({ ...known, needs: anyOf, anyOf: true, purpose });
}

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

import { UnsupportedFunctionalityError } from '@ai-sdk/provider';
import type { GatewayModel, ModelCapability } from '@infergate/core';
import type { OptionalCapability } from './gateway-chat-options';

const ACTIONS: Record<OptionalCapability, string> = {
  streaming: 'streaming (doStream / streamText)',
  tools: 'tools',
  json_object: 'JSON output without a schema (response_format json_object)',
  json_schema: 'JSON output with a schema (response_format json_schema)',
};

/**
 * The refusal of a call that needs capabilities the model has not passed. It is raised before any
 * chat request is sent, names the model, each missing capability and the listed models that
 * have everything the call needs.
 */
export class UnsupportedModelCapabilityError extends UnsupportedFunctionalityError {
  readonly modelId: string;
  readonly missing: OptionalCapability[];
  readonly alternatives: string[] | undefined;

  constructor(options: {
    modelId: string;
    missing: OptionalCapability[];
    needed: OptionalCapability[];
    alternatives: string[] | undefined;
  }) {
    const { modelId, missing, needed, alternatives } = options;
    const lacking = missing.map((capability) => ACTIONS[capability]).join(' and ');
    const others =
      alternatives === undefined
        ? ''
        : alternatives.length === 0
          ? ` No listed model has ${needed.join(' + ')}.`
          : ` Models with ${needed.join(' + ')}: ${alternatives.join(', ')}.`;
    super({
      functionality: missing.join(', '),
      message: `Model "${modelId}" does not support ${lacking} (missing capability: ${missing.join(', ')}).${others} No request was sent.`,
    });
    this.modelId = modelId;
    this.missing = missing;
    this.alternatives = alternatives;
  }
}

/** The capabilities in `needed` that `capabilities` lacks, in a stable order. */
export function missingCapabilities(
  capabilities: readonly (ModelCapability | (string & {}))[],
  needed: readonly OptionalCapability[],
): OptionalCapability[] {
  return needed.filter((capability) => !capabilities.includes(capability));
}

/** Ids of the catalog models that have every needed capability. */
export function modelsWithCapabilities(
  models: readonly GatewayModel[],
  needed: readonly OptionalCapability[],
): string[] {
  return models
    .filter((model) => missingCapabilities(model.capabilities, needed).length === 0)
    .map((model) => model.id);
}

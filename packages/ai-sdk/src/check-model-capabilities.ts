import { UnsupportedFunctionalityError } from '@ai-sdk/provider';
import type { GatewayError, ModelCapability } from '@infergate/core';

/**
 * Core's `unsupported_model_capability` refusal (built by `capabilityError`) as the AI SDK's
 * `UnsupportedFunctionalityError`. Raised before any chat request is sent; the message is
 * core's: the model, each missing capability and the listed models that have what the call needs.
 */
export class UnsupportedModelCapabilityError extends UnsupportedFunctionalityError {
  readonly modelId: string;
  readonly missing: ModelCapability[];
  readonly alternatives: string[] | undefined;

  constructor(refusal: GatewayError) {
    const missing = refusal.missing ?? [];
    super({ functionality: missing.join(', '), message: refusal.message });
    this.modelId = refusal.model ?? '';
    this.missing = missing;
    this.alternatives = refusal.alternatives;
    Object.defineProperty(this, 'cause', { value: refusal, configurable: true, writable: true });
  }
}

// docs/gateway-protocol.md §4.2 (capability rules: the refusal before sending).
import { AISDKError, UnsupportedFunctionalityError } from '@ai-sdk/provider';
import type { GatewayError, ModelCapability } from '@infergate/core';

const NAME = 'AI_UnsupportedModelCapabilityError';
// The @ai-sdk/provider convention: a global symbol marks instances, so `isInstance` works across
// copies of the package (where `instanceof` does not). Our own namespace, not `vercel.ai`.
const MARKER = `infergate.ai-sdk.error.${NAME}`;
const SYMBOL = Symbol.for(MARKER);

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
    // Its own name (the parent's constructor set `AI_UnsupportedFunctionalityError`); the parent's
    // marker stays, so `UnsupportedFunctionalityError.isInstance` is still true.
    this.name = NAME;
    (this as unknown as Record<symbol, boolean>)[SYMBOL] = true;
  }

  /** True for this error only; `UnsupportedFunctionalityError.isInstance` is true for it too. */
  static override isInstance(error: unknown): error is UnsupportedModelCapabilityError {
    return AISDKError.hasMarker(error, MARKER);
  }
}

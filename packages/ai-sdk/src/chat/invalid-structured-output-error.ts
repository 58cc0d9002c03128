// docs/gateway-protocol.md §4.8 (every structured answer checked), §10.4 (`invalid_structured_output`).
import { AISDKError, type LanguageModelV4Usage, TypeValidationError } from '@ai-sdk/provider';
import type {
  FailedChatRoute,
  GatewayError,
  StructuredOutputFailure,
  StructuredOutputIssue,
  StructuredOutputMethod,
} from '@infergate/core';
import { convertGatewayUsage } from './convert-gateway-usage';

const NAME = 'AI_InvalidStructuredOutputError';
// The @ai-sdk/provider convention: a global symbol marks instances, so `isInstance` works across
// copies of the package (where `instanceof` does not). Our own namespace, not `vercel.ai`.
const MARKER = `infergate.ai-sdk.error.${NAME}`;
const SYMBOL = Symbol.for(MARKER);

/**
 * Core's `invalid_structured_output` (every model tried answered a schema call with JSON that does
 * not follow it, the last one this) as the AI SDK's `TypeValidationError`: the error `ai` puts
 * under `NoObjectGeneratedError` when its own check of an object fails (`NoObjectGeneratedError`
 * itself lives in `ai`, which a provider does not import). The message is core's: every model
 * tried and why. `text`, `issues`, `reason` and `usage` are the last answer's; `route` lists every hop.
 */
export class InvalidStructuredOutputError extends TypeValidationError {
  /** The model whose answer failed last. */
  readonly modelId: string;
  /** How that model was asked for the schema. */
  readonly method: StructuredOutputMethod;
  /** That answer's text as the model sent it (a forced tool call's arguments for `tools`). */
  readonly text: string;
  /** How it breaks the schema (`path`: a JSON pointer into the answer). */
  readonly issues: StructuredOutputIssue[];
  /**
   * Why that answer failed, as core tells it (`invalidOutput.reason`): `'refused'` (the model
   * declined: reword or ask another model), `'cut'` (stopped at the length limit), `'no_json'`,
   * `'schema'` (JSON that breaks the schema). Undefined when core's error gave none.
   */
  readonly reason: StructuredOutputFailure | undefined;
  /** Every model the call went through and why each was left (core's `GatewayError.route`). */
  readonly route: FailedChatRoute | undefined;
  /**
   * The refused answer's token usage (the provider's usage shape, as `doGenerate` reports it), when
   * the gateway reported it: the tokens were spent though no object is returned.
   */
  readonly usage: LanguageModelV4Usage | undefined;

  constructor(failure: GatewayError) {
    const output = failure.invalidOutput ?? { method: 'json_schema', text: '', issues: [] };
    super({ value: output.text, cause: failure });
    // Core's message (each model tried and why) instead of the parent's value dump.
    this.message = failure.message;
    this.modelId = failure.model ?? '';
    this.method = output.method;
    this.text = output.text;
    this.issues = output.issues;
    this.reason = output.reason;
    this.route = failure.route;
    this.usage = failure.usage === undefined ? undefined : convertGatewayUsage(failure.usage);
    // Its own name (the parent's constructor set `AI_TypeValidationError`); the parent's marker
    // stays, so `TypeValidationError.isInstance` is still true.
    this.name = NAME;
    (this as unknown as Record<symbol, boolean>)[SYMBOL] = true;
  }

  /** True for this error only; `TypeValidationError.isInstance` is true for it too. */
  static override isInstance(error: unknown): error is InvalidStructuredOutputError {
    return AISDKError.hasMarker(error, MARKER);
  }
}

// docs/gateway-protocol.md §10.4 (client error codes).
import { GatewayError } from '@infergate/core';
import { callEndedError } from '@infergate/core/internal';

/** A configuration mistake found while building an object (no request was made). */
export function configurationError(message: string, field?: string): GatewayError {
  return new GatewayError({ code: 'configuration_error', message, field });
}

/**
 * A model built with `new` and no `capabilities` has an empty `profile` until its first call, so
 * `createAgent` asks a json_schema model without tools for structured output through a tool. Its
 * refusal then says how to let `createAgent` pick `response_format: json_schema` instead.
 */
export function withCreateHint(
  error: unknown,
  capabilities: readonly string[] | undefined,
): unknown {
  if (
    !(error instanceof GatewayError) ||
    error.code !== 'unsupported_model_capability' ||
    !error.missing?.includes('tools') ||
    !capabilities?.includes('json_schema')
  ) {
    return error;
  }
  return new GatewayError({
    code: error.code,
    message: `${error.message} Its capabilities were unknown when it was built, so its \`profile\` was empty and \`createAgent\` asked for \`responseFormat\` through a tool: build it with \`await GatewayChatModel.create(...)\` (or pass \`capabilities\`) and \`createAgent\` uses the model's json_schema output instead.`,
    model: error.model,
    missing: error.missing,
    alternatives: error.alternatives,
    requestedModel: error.requestedModel,
  });
}

/**
 * An aborted call rejects before any request, catalog lookups included, with core's error for it
 * (LangChain's `timeout` aborts with AbortSignal.timeout's TimeoutError: core reads it as a
 * deadline, `timeout`; any other reason is `aborted`).
 */
export function throwIfAborted(signal: AbortSignal | undefined): void {
  if (signal?.aborted) throw callEndedError(signal.reason);
}

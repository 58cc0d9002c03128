import { GatewayError, type ModelCapability } from '@infergate/core';

/** A refusal before any request: the message names the field and what is wrong with it. */
export function invalidInput(field: string, message: string): GatewayError {
  return new GatewayError({
    code: 'invalid_request_error',
    message: `${field}: ${message}`,
    field,
    isRetryable: false,
  });
}

/** A configuration mistake found while building an object (no request was made). */
export function configurationError(message: string): GatewayError {
  return new GatewayError({ code: 'configuration_error', message, isRetryable: false });
}

/**
 * The capability refusal for capabilities known without a catalog lookup (passed in, or loaded by
 * `create`). Worded like core's `requireCapabilities` error so both read the same.
 */
// TODO(core): core builds this error inside requireCapabilities only; a synchronous builder
// (model id + capabilities + optional catalog) would let adapters share its exact wording.
export function unsupportedCapability(
  model: string,
  missing: ModelCapability[],
  alternatives: string[] | undefined,
  purpose: string,
): GatewayError {
  const list = missing.join(', ');
  const others =
    alternatives === undefined
      ? 'the catalog was not loaded, so the models that have it are unknown (use GatewayChatModel.create to list them)'
      : alternatives.length > 0
        ? `models that have it: ${alternatives.join(', ')}`
        : 'no listed model has it';
  return new GatewayError({
    code: 'unsupported_model_capability',
    message: `Model "${model}" lacks the ${list} capability needed for ${purpose}; ${others}.`,
    model,
    missing,
    alternatives,
    isRetryable: false,
  });
}

/** The gateway answered 200 with a body the client cannot use. */
export function invalidResponse(message: string): GatewayError {
  return new GatewayError({ code: 'invalid_response', message, isRetryable: false });
}

import { GatewayError } from '@infergate/core';

/** A configuration mistake found while building an object (no request was made). */
export function configurationError(message: string): GatewayError {
  return new GatewayError({ code: 'configuration_error', message, isRetryable: false });
}

/** The gateway answered 200 with a body the client cannot use. */
export function invalidResponse(message: string): GatewayError {
  return new GatewayError({ code: 'invalid_response', message, isRetryable: false });
}

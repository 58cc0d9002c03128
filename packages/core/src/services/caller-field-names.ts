// docs/gateway-protocol.md §6 (embeddings), §7 (translation): core's refusal of a field, named as
// the caller gave it.
import { GatewayError, isGatewayError } from '../errors/errors';

/**
 * Core's refusal of a request's field, made before sending, named as the caller of an API with
 * other names gave it: `names` maps core's name (`input`, `target_language`) to the caller's
 * (`text`, `targetLanguage`). Any other error, or a field `names` leaves out, is returned as it is.
 * For an adapter's helpers whose arguments are not the request's fields (the AI SDK's
 * `translate`), so that a refusal never names a field their caller cannot pass. (`embedMany`
 * renames its own in its chunk: sharing this one would split a chunk off both.)
 */
export function withCallerFieldNames(
  error: unknown,
  names: Readonly<Record<string, string>>,
): unknown {
  if (!isGatewayError(error) || error.status !== undefined || error.field === undefined) {
    return error;
  }
  const field = Object.hasOwn(names, error.field) ? names[error.field] : undefined;
  if (field === undefined || !error.message.startsWith(error.field)) return error;
  return new GatewayError({
    code: error.code,
    message: `${field}${error.message.slice(error.field.length)}`,
    field,
  });
}

// docs/gateway-protocol.md §10 (a call's option refused before anything is sent).
import { InvalidArgumentError } from '@ai-sdk/provider';
import { isGatewayError } from '@infergate/core';

/**
 * Core's refusal of a key of `providerOptions.infergate` as ai's `InvalidArgumentError`, whose
 * `argument` is the value's whole path (`providerOptions.infergate.hedge.afterMs`): core names a
 * field from the object it read, which `path` places. Not core's: returned unchanged.
 */
export function optionRefusal(error: unknown, path: (field: string) => string): unknown {
  if (!isGatewayError(error)) return error;
  return new InvalidArgumentError({
    argument: path(error.field ?? ''),
    message: error.message,
    cause: error,
  });
}

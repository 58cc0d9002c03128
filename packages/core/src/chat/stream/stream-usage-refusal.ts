// docs/gateway-protocol.md §5.6 (usage asked for in a stream with `stream_options`).
import { isGatewayError } from '../../errors/errors';
import type { RequestSpec } from '../../http/request-types';

/**
 * A 400 that refuses the `stream_options` core added (§5.6): its message names the opt-out. Not
 * retried without it: the gateway's answer says what it accepts, and the caller decides.
 */
export function namingStreamUsage(error: unknown, spec: RequestSpec): unknown {
  if (!isGatewayError(error) || error.status !== 400) return error;
  const refused = `${error.message}\n${error.body ?? ''}`.includes('stream_options');
  if (!refused || !(spec.body as string).includes('"stream_options":{"include_usage":true}')) {
    return error;
  }
  (error as { message: string }).message +=
    ' — the request asked for usage with stream_options, which the gateway refused: set streamUsage: false (on the call, the client or the model) to leave it out';
  return error;
}

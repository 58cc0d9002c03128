// docs/gateway-protocol.md §2.5 (a call's deadline), §4.2 (the gate's catalog read is a request of
// the call, under its one deadline).
import type { ChatCallOptions } from '@infergate/core';
import { callEndedError, monotonicNow } from '@infergate/core/internal';

/**
 * The call's `timeoutMs` as one deadline over its two core calls, the capability gate's catalog
 * read and then the chat (README: "Deadline of one call"). Core takes a deadline as a length per
 * call: started now on core's monotonic clock, the returned function gives the chat's options
 * with what the read left of it (rounded up to whole ms; the full length when nothing was read),
 * or throws core's `timeout` error when nothing is left. No deadline given (the client's default
 * applies) or a malformed one (core refuses it): the options as they are.
 */
export function oneDeadline(options: ChatCallOptions, model: string): () => ChatCallOptions {
  const { timeoutMs } = options;
  if (typeof timeoutMs !== 'number' || !(timeoutMs > 0)) return () => options;
  const dueAt = monotonicNow() + timeoutMs;
  return () => {
    const left = Math.min(timeoutMs, Math.ceil(dueAt - monotonicNow()));
    if (left <= 0) throw callEndedError(undefined, { timeoutMs, requestedModel: model });
    return left === timeoutMs ? options : { ...options, timeoutMs: left };
  };
}

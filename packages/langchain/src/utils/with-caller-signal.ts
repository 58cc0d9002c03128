// docs/gateway-protocol.md §5.2 (end and completeness: a stream its consumer leaves ends its request).

/**
 * `own`'s signal, aborted also when the caller's is: a stream is cancelled by its consumer leaving
 * or by its caller. `AbortSignal.any` where the runtime has it; edge-runtime lacks it, so there
 * the caller's abort is forwarded by a listener (it lives as long as the caller's signal).
 */
export function withCallerSignal(
  own: AbortController,
  caller: AbortSignal | undefined,
): AbortSignal {
  if (caller === undefined) return own.signal;
  if (typeof AbortSignal.any === 'function') return AbortSignal.any([caller, own.signal]);
  if (caller.aborted) own.abort(caller.reason);
  else caller.addEventListener('abort', () => own.abort(caller.reason), { once: true });
  return own.signal;
}

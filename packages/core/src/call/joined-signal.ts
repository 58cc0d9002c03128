// docs/gateway-protocol.md §5.2 (end and completeness: a stream its consumer leaves ends its request).

/** A signal that aborts with the caller's and with `abort`; `release` drops what forwards it. */
export interface JoinedSignal {
  readonly signal: AbortSignal;
  readonly abort: (reason?: unknown) => void;
  /** Stops forwarding the caller's abort (only where the runtime has no `AbortSignal.any`). */
  readonly release: (() => void) | undefined;
}

/**
 * The caller's signal joined to one the adapter aborts itself (its consumer left the stream, or
 * cancelled it before it opened). `AbortSignal.any` joins the two where the runtime has it;
 * edge-runtime lacks it, so there a listener forwards the caller's abort, removed by `release`
 * once the stream ended, so that a caller's signal reused across streams keeps none.
 */
export function joinedSignal(caller: AbortSignal | undefined): JoinedSignal {
  const own = new AbortController();
  const abort = (reason?: unknown) => own.abort(reason);
  if (caller === undefined) return { signal: own.signal, abort, release: undefined };
  if (typeof AbortSignal.any === 'function') {
    return { signal: AbortSignal.any([caller, own.signal]), abort, release: undefined };
  }
  const forward = () => own.abort(caller.reason);
  if (caller.aborted) forward();
  else caller.addEventListener('abort', forward, { once: true });
  return { signal: own.signal, abort, release: () => caller.removeEventListener('abort', forward) };
}

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
 * once the stream ended, so that a caller's signal reused across streams keeps none — and, for a
 * stream its consumer dropped unfinished, once the joined signal is collected (`forwardWeakly`).
 */
export function joinedSignal(caller: AbortSignal | undefined): JoinedSignal {
  const own = new AbortController();
  const abort = (reason?: unknown) => own.abort(reason);
  if (caller === undefined) return { signal: own.signal, abort, release: undefined };
  if (typeof AbortSignal.any === 'function') {
    return { signal: AbortSignal.any([caller, own.signal]), abort, release: undefined };
  }
  if (caller.aborted) {
    own.abort(caller.reason);
    return { signal: own.signal, abort, release: () => {} };
  }
  return { signal: own.signal, abort, release: forwardWeakly(caller, own) };
}

/** The controller of each joined signal, alive as long as its signal (see `forwardWeakly`). */
const controllers = new WeakMap<AbortSignal, AbortController>();

/** Removes the forwarding listener of a joined signal that was collected before its release. */
const unreachable =
  typeof FinalizationRegistry === 'function' && typeof WeakRef === 'function'
    ? new FinalizationRegistry<{ caller: AbortSignal; forward: () => void }>(
        ({ caller, forward }) => {
          // (A finalizer must not throw.)
          try {
            caller.removeEventListener('abort', forward);
          } catch {}
        },
      )
    : undefined;

/**
 * Forwards the caller's abort to `own` by a listener that does not keep `own` alive: a stream its
 * consumer dropped (never read to the end, never cancelled) must not stay reachable from the
 * caller's long-lived signal, and its listener goes once its signal is collected. Returns the
 * `release` that removes the listener at the stream's end.
 */
function forwardWeakly(caller: AbortSignal, own: AbortController): () => void {
  if (unreachable === undefined) return forwardStrongly(caller, own);
  // (No closure here may name `own`: closures of one function share its captured variables.)
  controllers.set(own.signal, own);
  const joined = new WeakRef(own.signal);
  const forward = () => {
    const signal = joined.deref();
    if (signal !== undefined) controllers.get(signal)?.abort(caller.reason);
  };
  const token = {};
  caller.addEventListener('abort', forward, { once: true });
  unreachable.register(own.signal, { caller, forward }, token);
  return () => {
    caller.removeEventListener('abort', forward);
    unreachable.unregister(token);
  };
}

/** Where the runtime can't collect weakly: a listener that `release` alone removes. */
function forwardStrongly(caller: AbortSignal, own: AbortController): () => void {
  const forward = () => own.abort(caller.reason);
  caller.addEventListener('abort', forward, { once: true });
  return () => caller.removeEventListener('abort', forward);
}

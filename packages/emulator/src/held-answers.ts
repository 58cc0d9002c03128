// docs/gateway-protocol.md §2.5 (a request holds its key's slot until it is answered).
import type { EndpointName } from './counters';

/**
 * Answers a test holds back: while a hold is on, every request to its endpoint waits before its
 * headers (after its scripted latency), holding its key's slot, until the test releases it. A test then waits
 * for the state it needs (4 requests held, a Redis lease re-taken) instead of scripting an answer
 * long enough to outlast a loaded machine.
 */
export class HeldAnswers {
  #gate: { endpoint: EndpointName; opened: Promise<void>; open: () => void } | undefined;

  /** Holds `endpoint`'s answers from now on; the returned function releases them (safe twice). */
  hold(endpoint: EndpointName): () => void {
    let open = () => {};
    const opened = new Promise<void>((resolve) => {
      open = resolve;
    });
    const gate = { endpoint, opened, open };
    this.#gate = gate;
    return () => {
      if (this.#gate === gate) this.#gate = undefined;
      gate.open();
    };
  }

  /** Waits while a hold is on; rejects like fetch (AbortError) when the request is aborted. */
  async wait(endpoint: EndpointName, signal: AbortSignal): Promise<void> {
    const gate = this.#gate;
    if (gate?.endpoint !== endpoint) return;
    if (signal.aborted) throw new DOMException('The request was aborted', 'AbortError');
    let onAbort = () => {};
    const aborted = new Promise<never>((_, reject) => {
      onAbort = () => reject(new DOMException('The request was aborted', 'AbortError'));
      signal.addEventListener('abort', onAbort, { once: true });
    });
    try {
      await Promise.race([gate.opened, aborted]);
    } finally {
      signal.removeEventListener('abort', onAbort);
    }
  }
}

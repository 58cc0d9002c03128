// docs/gateway-protocol.md §2.5 (a request holds its key's slot until it is answered).
import type { EmulatorCounters, EndpointName } from './counters';
import { refuseUnknownOptions } from './field-names';
import { GatewayRefusal } from './gateway-error';
import { timerMs } from './timing';

/** How `holdAnswers` holds. */
export interface HoldOptions {
  /**
   * Hold too the requests an injected fault answers before its headers (`rate_limit`,
   * `model_busy`, a 5xx, `drop_connection`: the answer comes on release). Default false: only
   * what the gateway accepts is held.
   */
  faults?: boolean;
}

/** One hold: released when `opened` resolves. */
interface Gate {
  faults: boolean;
  opened: Promise<void>;
  open: () => void;
}

/** The keys `holdAnswers`' options take. */
const HOLD_OPTION_KEYS = ['faults'] as const satisfies readonly (keyof HoldOptions)[];

/**
 * Answers a test holds back: while a hold is on, every request to its endpoint that the gateway
 * accepts (checked, within its key's and its model's limits) waits before its headers, holding
 * its slots, until the test releases it or its deadline passes; a refusal is never held, except
 * an injected fault's when the hold says `faults`. A test then waits for the state it needs (4
 * requests held, a Redis lease re-taken, a client's queue) instead of scripting an answer long
 * enough to outlast a loaded machine.
 */
export class HeldAnswers {
  readonly #counters: EmulatorCounters;
  readonly #changed: () => void;
  /** The hold on each endpoint: independent, so a hold on one never ends another's. */
  readonly #gates = new Map<EndpointName, Gate>();

  constructor(counters: EmulatorCounters, changed: () => void) {
    this.#counters = counters;
    this.#changed = changed;
  }

  /** Holds `endpoint`'s answers from now on; the returned function releases them (safe twice). */
  hold(endpoint: EndpointName, options: HoldOptions = {}): () => void {
    refuseUnknownOptions(options, HOLD_OPTION_KEYS, 'holdAnswers');
    let open = () => {};
    const opened = new Promise<void>((resolve) => {
      open = resolve;
    });
    // A later hold on the same endpoint takes over from now on; the earlier one still frees
    // the requests it held when it is released.
    const gate: Gate = { faults: options.faults === true, opened, open };
    this.#gates.set(endpoint, gate);
    return () => {
      if (this.#gates.get(endpoint) === gate) this.#gates.delete(endpoint);
      gate.open();
    };
  }

  /**
   * Waits while a hold is on. Rejects like fetch (AbortError) when the request is aborted, and
   * with 504 `request_timeout` at its deadline, as any wait of the emulator does. An injected
   * fault's answer (`fault: true`) waits only under a hold with `faults`. While it waits, the
   * request counts in `counters.held` under its key (`apiKey`): it is past every check that could
   * refuse it, which is what `untilHeld` waits for.
   */
  async wait(
    endpoint: EndpointName,
    apiKey: string,
    deadline: number,
    signal: AbortSignal,
    { fault = false } = {},
  ): Promise<void> {
    const gate = this.#gates.get(endpoint);
    if (gate === undefined || (fault && !gate.faults)) return;
    if (signal.aborted) throw new DOMException('The request was aborted', 'AbortError');
    let onAbort = () => {};
    let timer: ReturnType<typeof setTimeout> | undefined;
    const ended = new Promise<never>((_, reject) => {
      onAbort = () => reject(new DOMException('The request was aborted', 'AbortError'));
      signal.addEventListener('abort', onAbort, { once: true });
      timer = setTimeout(
        () => reject(new GatewayRefusal('request_timeout', 'The request exceeded its time limit')),
        timerMs(deadline - Date.now()),
      );
    });
    const held = this.#counters.held;
    held[apiKey] = (held[apiKey] ?? 0) + 1;
    this.#changed();
    try {
      await Promise.race([gate.opened, ended]);
    } finally {
      signal.removeEventListener('abort', onAbort);
      clearTimeout(timer);
      // The live object: `resetCounters` keeps it, as it keeps `inflight`.
      const live = this.#counters.held;
      live[apiKey] = Math.max(0, (live[apiKey] ?? 1) - 1);
      this.#changed();
    }
  }
}

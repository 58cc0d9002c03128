// docs/gateway-protocol.md §4.7 (a hedged call: a second attempt into a free slot, the first answer
// wins, the other aborted at once).
import { settledWithin } from '../budget/releases-due';
import type { CallScope } from '../call/call-scope';
import { MAX_TIMEOUT_MS } from '../call/timer-limit';
import { GatewayError } from '../errors/errors';
import type { CallEvents } from '../events/call-events';
import { CUT_REQUEST_GRACE_MS } from '../http/slot-source';
import type { OpenVia, Slot } from '../http/transport';

/** One run of a hedged call: the first attempt's walk, or the hedge. */
export type Run<T> = (via: OpenVia) => Promise<T>;

/** The hedge, once it may be sent: its model, its run, and its slot (free when it was taken). */
export interface Hedge<T> {
  model: string;
  run: Run<T>;
  slot: Slot;
}

/** What a hedged call races. */
export interface HedgeRace<T> {
  /** The call's scope: one deadline over both runs. */
  scope: CallScope;
  events: CallEvents | undefined;
  /** The first attempt's run (the walk over the call's models). */
  first: Run<T>;
  /**
   * The hedge, asked for when the first run has no content `delayMs` after its first request was
   * sent: undefined when none may be sent (no free slot, the hedge allowance spent), or when the
   * race was decided while it waited for its slot (`open()` false then: none is sent or reported).
   */
  hedge: (open: () => boolean) => Promise<Hedge<T> | undefined>;
  delayMs: number;
  /** Gives back an answer nobody will read (a run that answered after the other had won). */
  discard: (answer: T) => void;
  /**
   * Whether run `name`'s failure `error` ends the call at once, the other run cut (undefined: none
   * does; the other run may still answer).
   */
  endsCall?: (name: 'first' | 'hedge', error: unknown) => boolean;
}

/** How a hedged call ended: its answer, which run gave it, and the hedge's model when one ran. */
export interface Raced<T> {
  answer: T;
  winner: 'first' | 'hedge';
  hedgeModel?: string;
  /** The other run was still going when this one won (or had its first content): aborted. */
  otherCut: boolean;
}

/** Why a run is aborted: the other answered first. */
export const HEDGE_LOST = new GatewayError({
  code: 'aborted',
  message: 'Aborted: the other attempt of this hedged call answered first',
});

/** Why a run is aborted: the other ended the call (a failure no answer of this run could undo). */
export const HEDGE_CALL_ENDED = new GatewayError({
  code: 'aborted',
  message: 'Aborted: the other attempt of this hedged call ended the call',
});

/**
 * Races the first run with a hedge sent `delayMs` after the first run's first request when the
 * first run has not answered by then (a stream: no content yet) and `hedge()` gives one. The first
 * run to answer wins; the other is aborted at once (its slot given back; the call's `done` event
 * waits for its end, the winner's answer does not). A stream's run says its first content
 * (`content`) before it answers: a structured stream is held past it to its check, and may fail
 * over within its run. That content decides the race at once — no hedge is sent after it, the
 * other run is cut — and the run it decided for answers or ends the call with its own error. When
 * both fail otherwise, the first run's error ends the call (the steered call's route adds the
 * hedge's failure) — unless a run's failure ends it at once (`endsCall`): the other is cut then,
 * a hedge not sent yet never is. `sent`
 * starts the clock: the first run calls it as its first request is sent (a call waiting for its
 * slot is not slow), and only that once counts: the first run's retries and failovers do not ask
 * for a hedge again (one not sent is reported once per call) — unless `again` was called while
 * the hedge was asked for (none could go while the first run waited between its attempts): the
 * clock then starts again at the first run's next request. `delayMs` is clamped to the longest
 * timer, as the call's deadline is: a longer one fires at once (the hedge after 1 ms).
 */
export function raceWithHedge<T>(race: HedgeRace<T>): {
  result: Promise<Raced<T>>;
  /** The first run's request was sent: true when the hedge's delay starts from it. */
  sent: () => boolean;
  /** The run's first content: true when it decided the race now (the other run, if any, cut). */
  content: (name: 'first' | 'hedge') => boolean;
  /** No hedge now: the clock starts again at the first run's next request (`sent`). */
  again: () => void;
} {
  let running: HedgedRace<T> | undefined;
  const result = new Promise<Raced<T>>((resolve, reject) => {
    running = new HedgedRace(race, resolve, reject);
    const started = running;
    // (On the next microtask: the caller has `sent` by then, for the first run's first request.)
    queueMicrotask(() => started.start('first', race.first, {}));
  });
  return {
    result,
    sent: () => running?.startClock() ?? false,
    content: (name) => running?.content(name) ?? false,
    again: () => running?.again(),
  };
}

/** One run of the race: its scope, and how it ended. */
interface RaceRun {
  name: 'first' | 'hedge';
  scope: CallScope;
  error?: unknown;
  done: boolean;
  /** The race aborted it: the other run answered, or its first content came first. */
  cut?: true;
  /** Once the run has ended and its end was handled (its last events sent). */
  settled?: Promise<void>;
}

/** The state of one hedged call's race (`raceWithHedge`). */
class HedgedRace<T> {
  readonly #race: HedgeRace<T>;
  readonly #resolve: (raced: Raced<T>) => void;
  readonly #reject: (error: unknown) => void;
  readonly #runs: RaceRun[] = [];
  #settled = false;
  #timer: ReturnType<typeof setTimeout> | undefined;
  #hedgeModel: string | undefined;
  #hedgePending = false;
  /** The run whose first content came first: the race is its, though it has not answered yet. */
  #decided: RaceRun | undefined;

  constructor(
    race: HedgeRace<T>,
    resolve: (raced: Raced<T>) => void,
    reject: (error: unknown) => void,
  ) {
    this.#race = race;
    this.#resolve = resolve;
    this.#reject = reject;
  }

  #end(): void {
    this.#settled = true;
    if (this.#timer !== undefined) clearTimeout(this.#timer);
  }

  start(name: 'first' | 'hedge', run: Run<T>, via: OpenVia): void {
    const race = this.#race;
    const scope = race.scope.child();
    const entry: RaceRun = { name, scope, done: false };
    this.#runs.push(entry);
    // (Each run's failure is the call's to report: the other run may go on.)
    entry.settled = run({ ...via, scope, events: race.events, reportsEnd: false }).then(
      (answer) => this.#won(entry, answer),
      (error: unknown) => this.#failed(entry, error),
    );
  }

  /**
   * The run `name`'s first content: when the race is still open, it is that run's (the hedge's
   * wait ends, the other run is cut) and true is returned; else (decided, or cut) false.
   */
  content(name: RaceRun['name']): boolean {
    const entry = this.#runs.find((run) => run.name === name && !run.done);
    if (this.#settled || this.#decided !== undefined || entry === undefined) return false;
    this.#decided = entry;
    if (this.#timer !== undefined) clearTimeout(this.#timer);
    this.#timer = undefined;
    this.#cutAllBut(entry);
    return true;
  }

  /** Aborts every run still going but `entry` (`why`: the abort's reason). */
  #cutAllBut(entry: RaceRun, why = HEDGE_LOST): void {
    for (const other of this.#runs) {
      if (other === entry || other.done) continue;
      other.cut = true;
      other.scope.abort(why);
    }
  }

  /** The race ended with runs cut: the call's `done` waits for their ends; true if one was. */
  #doneAfterCut(): boolean {
    const cut = this.#runs.filter((other) => other.cut);
    // The cut run's `response` and `released` follow its abort: the call's `done` waits for them
    // (its answer or error does not), as long as a cut request's slot is held at most.
    if (cut.length > 0) {
      const settled = Promise.all(cut.map((run) => run.settled));
      this.#race.events?.endsAfter(settledWithin(settled, CUT_REQUEST_GRACE_MS));
    }
    return cut.length > 0;
  }

  #won(entry: RaceRun, answer: T): void {
    const { name, scope } = entry;
    entry.done = true;
    // (A run cut at the other's first content may have answered in the same turn.)
    if (this.#settled || (this.#decided !== undefined && this.#decided !== entry)) {
      this.#race.discard(answer);
      return;
    }
    this.#end();
    this.#cutAllBut(entry);
    const otherCut = this.#doneAfterCut();
    scope.disposeWith(this.#race.scope);
    const hedgeModel = this.#hedgeModel;
    this.#resolve({ answer, winner: name, hedgeModel, otherCut });
  }

  #failed(entry: RaceRun, error: unknown): void {
    const runs = this.#runs;
    entry.done = true;
    entry.error = error;
    entry.scope.dispose();
    // A failure that ends the call (a page, not the model's answer): the other run is cut, a hedge
    // on its way (its slot asked for) or not yet due is never sent (`open()` false, the timer off).
    const open = !this.#settled && this.#decided === undefined;
    if (open && this.#race.endsCall?.(entry.name, error)) {
      this.#end();
      this.#cutAllBut(entry, HEDGE_CALL_ENDED);
      this.#doneAfterCut();
      this.#race.scope.dispose();
      this.#reject(error);
      return;
    }
    // Both failed, or the first failed with no hedge on its way: the first's error ends it, or
    // the error of the run the race was decided for at its first content.
    if (this.#settled || this.#hedgePending || runs.some((other) => !other.done)) return;
    if (entry.name === 'hedge' && this.#timer !== undefined) return;
    this.#end();
    this.#race.scope.dispose();
    this.#reject((this.#decided ?? runs[0]!).error);
  }

  async #sendHedge(): Promise<void> {
    const runs = this.#runs;
    this.#timer = undefined;
    if (this.#settled || runs[0]!.done) return;
    this.#hedgePending = true;
    const open = () => !this.#settled && this.#decided === undefined && !runs[0]!.done;
    const hedge = await this.#race.hedge(open).catch(() => undefined);
    this.#hedgePending = false;
    if (hedge === undefined || !open()) {
      hedge?.slot.release();
      // The first run may have failed while the hedge was being prepared.
      if (!this.#settled && runs[0]!.done && runs[0]!.error !== undefined) {
        this.#end();
        this.#race.scope.dispose();
        this.#reject(runs[0]!.error);
      }
      return;
    }
    this.#hedgeModel = hedge.model;
    this.start('hedge', hedge.run, { slot: hedge.slot });
  }

  #clockStarted = false;

  /** The hedge asked for was not sent, and may be later: the next `startClock` starts it again. */
  again(): void {
    this.#clockStarted = false;
  }

  /** The first run's first request was sent: the hedge's delay starts (once per call); true if it did. */
  startClock(): boolean {
    if (this.#clockStarted || this.#settled || this.#decided !== undefined) return false;
    this.#clockStarted = true;
    this.#timer = setTimeout(
      () => void this.#sendHedge(),
      Math.min(MAX_TIMEOUT_MS, this.#race.delayMs),
    );
    return true;
  }
}

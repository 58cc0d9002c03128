// docs/gateway-protocol.md §4.7 (a hedged call: a second attempt into a free slot, the first answer
// wins, the other aborted at once).
import { type CallScope, MAX_TIMEOUT_MS } from '../call/call-scope';
import { GatewayError } from '../errors/errors';
import type { CallEvents } from '../events/call-events';
import type { OpenVia, Reservation } from '../http/transport';

/** One run of a hedged call: the first attempt's walk, or the hedge. */
export type Run<T> = (via: OpenVia) => Promise<T>;

/** The hedge, once it may be sent: its model, its run, and its slot (free when it was taken). */
export interface Hedge<T> {
  model: string;
  run: Run<T>;
  slot: () => void;
}

/** What a hedged call races. */
export interface HedgeRace<T> {
  /** The call's scope: one deadline over both runs. */
  scope: CallScope;
  events: CallEvents | undefined;
  /** The first attempt's run (the walk over the call's models). */
  first: Run<T>;
  /** A place in the key's queue the first run takes (the room's first load). */
  reservation?: Reservation;
  /**
   * The hedge, asked for when the first run has no content `delayMs` after its first request was
   * sent: undefined when none may be sent (no free slot, the hedge budget spent).
   */
  hedge: () => Promise<Hedge<T> | undefined>;
  delayMs: number;
  /** Gives back an answer nobody will read (a run that answered after the other had won). */
  discard: (answer: T) => void;
}

/** How a hedged call ended: its answer, which run gave it, and the hedge's model when one ran. */
export interface Raced<T> {
  answer: T;
  winner: 'first' | 'hedge';
  hedgeModel?: string;
  /** The hedge's failure, when it failed before the first run answered. */
  hedgeError?: unknown;
  /** The other run was still going when this one won, and was aborted. */
  otherCut: boolean;
}

/** Why a run is aborted: the other answered first. */
export const HEDGE_LOST = new GatewayError({
  code: 'aborted',
  message: 'Aborted: the other attempt of this hedged call answered first',
});

/**
 * Races the first run with a hedge sent `delayMs` after the first run's first request when the
 * first run has not answered by then (a stream: no content yet) and `hedge()` gives one. The first
 * run to answer wins; the other is aborted at once (its slot given back). When both fail, the
 * first run's error ends the call (it carries the walk's route). `sent` starts the clock: the
 * first run calls it as its first request is sent (a call waiting for its slot is not slow), and
 * only that once counts: the first run's retries and failovers do not ask for a hedge again (one
 * not sent is reported once per call). `delayMs` is clamped to the longest timer, as the call's
 * deadline is: a longer one fires at once (the hedge after 1 ms).
 */
export function raceWithHedge<T>(race: HedgeRace<T>): {
  result: Promise<Raced<T>>;
  sent: () => void;
} {
  let startClock = (): void => {};
  const result = new Promise<Raced<T>>((resolve, reject) => {
    const numbers = attemptNumbers();
    const runs: { name: 'first' | 'hedge'; scope: CallScope; error?: unknown; done: boolean }[] =
      [];
    let settled = false;
    let timer: ReturnType<typeof setTimeout> | undefined;
    let hedgeModel: string | undefined;
    let hedgePending = false;
    const end = () => {
      settled = true;
      if (timer !== undefined) clearTimeout(timer);
    };
    const start = (name: 'first' | 'hedge', run: Run<T>, via: OpenVia) => {
      const scope = race.scope.child();
      const entry: (typeof runs)[number] = { name, scope, done: false };
      runs.push(entry);
      run({ ...via, scope, events: race.events, part: numbers }).then(
        (answer) => {
          entry.done = true;
          if (settled) return race.discard(answer);
          end();
          const cut = runs.filter((other) => other !== entry && !other.done);
          for (const other of cut) other.scope.abort(HEDGE_LOST);
          scope.disposeWith(race.scope);
          const hedgeError = runs.find((other) => other.name === 'hedge')?.error;
          resolve({ answer, winner: name, hedgeModel, hedgeError, otherCut: cut.length > 0 });
        },
        (error: unknown) => {
          entry.done = true;
          entry.error = error;
          scope.dispose();
          // Both failed, or the first failed with no hedge on its way: the first's error ends it.
          if (settled || hedgePending || runs.some((other) => !other.done)) return;
          if (name === 'hedge' && timer !== undefined) return;
          end();
          race.scope.dispose();
          reject(runs[0]!.error);
        },
      );
    };
    const sendHedge = async () => {
      timer = undefined;
      if (settled || runs[0]!.done) return;
      hedgePending = true;
      const hedge = await race.hedge().catch(() => undefined);
      hedgePending = false;
      if (hedge === undefined || settled || runs[0]!.done) {
        hedge?.slot();
        // The first run may have failed while the hedge was being prepared.
        if (!settled && runs[0]!.done && runs[0]!.error !== undefined) {
          end();
          race.scope.dispose();
          reject(runs[0]!.error);
        }
        return;
      }
      hedgeModel = hedge.model;
      const scopeForSlot = race.scope;
      const reservation: Reservation = {
        scope: scopeForSlot,
        slot: Promise.resolve(hedge.slot),
        taken: false,
      };
      start('hedge', hedge.run, { reservation });
    };
    startClock = () => {
      startClock = () => {};
      if (settled) return;
      timer = setTimeout(() => void sendHedge(), Math.min(MAX_TIMEOUT_MS, race.delayMs));
    };
    // (On the next microtask: the caller has `sent` by then, for the first run's first request.)
    queueMicrotask(() => start('first', race.first, { reservation: race.reservation }));
  });
  return { result, sent: () => startClock() };
}

/** The attempt numbers of one call whose runs share its events (each number once, in order). */
function attemptNumbers(): { nextAttempt(): number } {
  let last = 0;
  return { nextAttempt: () => ++last };
}

import type { EmulatedGateway } from '@infergate/emulator/testing';
import { expect, it } from 'vitest';

/** What one request to the test app gave: its status and body, or how it failed. */
export interface Outcome {
  status: number;
  body: string;
  error?: string;
}

/** A runtime serving the app of `worker/handler.ts`. */
export interface Target {
  /** Sends `count` requests for `path` at once; `abandon` cancels each body after its first bytes. */
  run(path: string, count: number, options?: { abandon?: boolean }): Promise<Outcome[]>;
}

export const SURFACES = ['core', 'ai-sdk', 'langchain'] as const;
export type Surface = (typeof SURFACES)[number];
export const CASES = ['concurrent', 'streaming', 'abandoned', 'deadline'] as const;

/** Concurrent requests on one key: three times the 4 the key allows in flight, so the budget queues. */
export const CONCURRENT = 12;
/** No request may take longer than this: past it, it counts as hung. */
export const HUNG_AFTER_MS = 45_000;

/** Requests over HTTP to a runtime's server (workerd, edge-runtime, Bun, Deno). */
export function httpTarget(baseURL: () => string): Target {
  return {
    run(path, count, options = {}) {
      return Promise.all(
        Array.from({ length: count }, async (): Promise<Outcome> => {
          try {
            const response = await fetch(new URL(path, baseURL()), {
              // A connection per request: a kept-alive one that the runtime's server closed while
              // idle fails the next request sent on it ("fetch failed", seen under CI load).
              headers: { connection: 'close' },
              signal: AbortSignal.timeout(HUNG_AFTER_MS),
            });
            if (options.abandon && response.body) {
              const reader = response.body.getReader();
              const first = await reader.read();
              await reader.cancel();
              return { status: response.status, body: new TextDecoder().decode(first.value) };
            }
            return { status: response.status, body: await response.text() };
          } catch (error) {
            const cause = (error as { cause?: unknown }).cause;
            return { status: 0, body: '', error: cause ? `${error}: ${cause}` : String(error) };
          }
        }),
      );
    },
  };
}

function described(outcomes: Outcome[]): string {
  return JSON.stringify(
    outcomes.map((o) => o.error ?? `${o.status} ${o.body.slice(0, 400)}`),
    null,
    1,
  );
}

/** Every request answered 200 with a non-empty body (none hung, none empty). */
function expectAnswered(outcomes: Outcome[], read: (body: string) => string): void {
  const bad = outcomes.filter((o) => o.status !== 200 || read(o.body).trim() === '');
  expect(bad, described(bad)).toEqual([]);
}

const jsonField = (field: string) => (body: string) => {
  try {
    const value = (JSON.parse(body) as Record<string, unknown>)[field];
    return typeof value === 'string' ? value : '';
  } catch {
    return '';
  }
};

/**
 * The cases of one surface, as vitest tests (run in order): each checks the answers, then the
 * emulator's counters: at most 4 of the key in flight, no request refused for concurrency.
 */
export function defineMatrix(
  surface: Surface,
  context: () => { target: Target; gateway: EmulatedGateway },
  options: { clientAbort?: boolean } = {},
): void {
  const check = async (run: (target: Target) => Promise<void>, cancelling = false) => {
    const { target, gateway } = context();
    gateway.emulator.resetCounters();
    await run(target);
    await gateway.untilIdle({ key: gateway.apiKey, timeoutMs: 60_000 });
    const { maxInflight, concurrencyRejections } = gateway.emulator.counters;
    expect(maxInflight[gateway.apiKey] ?? 0).toBeLessThanOrEqual(4);
    // A cancelled stream or call frees its slot on our side at once; the gateway sees the
    // connection close a moment later (Deno's fetch can take until the answer arrives), so a call
    // sent in between may get a 429, which is retried after Retry-After (the answers above were
    // all served). Without cancelling, none.
    if (!cancelling) expect(concurrencyRejections).toBe(0);
  };

  it(`${surface}: ${CONCURRENT} concurrent calls on one key are all answered`, () =>
    check(async (target) => {
      expectAnswered(await target.run(`/${surface}/chat`, CONCURRENT), jsonField('text'));
    }));

  it(`${surface}: ${CONCURRENT} concurrent streams are all read to a non-empty end`, () =>
    check(async (target) => {
      expectAnswered(await target.run(`/${surface}/stream`, CONCURRENT), (body) => body);
    }));

  it(`${surface}: abandoned streams free their slots; later calls are still served`, () =>
    check(async (target) => {
      // The app answers after a stream's first piece, leaving the rest unread.
      expectAnswered(await target.run(`/${surface}/abandon`, CONCURRENT), jsonField('first'));
      if (options.clientAbort) {
        // The app's own client goes away after the first bytes of a streamed answer.
        const cut = await target.run(`/${surface}/stream`, CONCURRENT, { abandon: true });
        expect(
          cut.filter((o) => o.status !== 200),
          described(cut),
        ).toEqual([]);
      }
      expectAnswered(await target.run(`/${surface}/chat`, CONCURRENT), jsonField('text'));
    }, true));

  it(`${surface}: every call's deadline fires, in flight or queued, and the key is free afterwards`, () =>
    check(async (target) => {
      const { gateway } = context();
      // Four calls take the key's slots and time out in flight; then eight more, with a shorter
      // deadline, time out while queued behind them (so no slot frees while one waits: a freed
      // slot would send a call the gateway, not yet aware of the abort, could refuse).
      // The deadlines run on the runtime's own clock, out of the test's reach: they stay real.
      // The answers are held (not only slow: the app's 5 s fault could end before a deadline a
      // loaded machine fires late) until every deadline has fired.
      const release = gateway.hold();
      const holders = target.run(`/${surface}/deadline?ms=3500`, 4);
      // In flight (in their `slow_headers` wait), not yet at the hold: `untilHeld` would wait for that.
      await gateway.untilInflight(4, { key: gateway.apiKey, timeoutMs: 60_000 });
      expect(gateway.counters.inflight[gateway.apiKey]).toBe(4);
      const queued = await target.run(`/${surface}/deadline?ms=600`, CONCURRENT - 4);
      const outcomes = [...(await holders), ...queued];
      release();
      const codes = outcomes.map((o) => o.error ?? jsonField('code')(o.body));
      expect(codes, described(outcomes)).toEqual(codes.map(() => 'timeout'));
      // Our side frees a slot the moment its call's deadline passes; the gateway counts the
      // request until it sees the connection close. Calls sent in between may meet its 429
      // (retried, yet counted as a rejection): wait until it has seen every abort.
      await gateway.untilIdle({ key: gateway.apiKey, timeoutMs: 60_000 });
      expectAnswered(await target.run(`/${surface}/chat`, 4), jsonField('text'));
      // Deadlines cancel requests in flight: the cancelling case of `check` (see there).
    }, true));
}

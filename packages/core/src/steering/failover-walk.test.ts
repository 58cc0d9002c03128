import { afterEach, describe, expect, it, vi } from 'vitest';
import { GatewayError, type GatewayErrorCode } from '../errors/errors';
import type { CallEvents } from '../events/call-events';
import { FailoverWalk } from './failover-walk';

const limits = { maxRetryAfterMs: 60_000, retryBaseDelayMs: 0, remainingMs: 300_000 };

function walkOver(...models: string[]): FailoverWalk {
  return new FailoverWalk({ models, bodyFor: (model) => JSON.stringify({ model }) });
}

function failure(code: GatewayErrorCode, status?: number, retryAfterMs?: number): GatewayError {
  return new GatewayError({ code, message: code, status, retryAfterMs });
}

afterEach(() => {
  vi.useRealTimers();
});

describe('FailoverWalk', () => {
  it("gives a cut run's last attempt its hop: lost in flight, ended at a 500, none after a failed hop", () => {
    const first = walkOver('a', 'b');
    const hedge = new FailoverWalk({ models: ['c'], bodyFor: (model) => model, routeOf: first });
    expect(first.unlistedHop()).toBeUndefined();
    first.startAttempt();
    expect(first.unlistedHop()).toEqual({ model: 'a', outcome: 'lost' });
    // A cut attempt fails with `aborted`: it was in flight, it did not fail.
    first.next(failure('aborted'), 0, { ...limits, maxRetries: 2 });
    expect(first.unlistedHop()).toEqual({ model: 'a', outcome: 'lost' });
    // A 500 is retried on the same model: its retry, not sent yet, adds no lost hop.
    first.next(failure('provider_protocol_error', 500), 0, { ...limits, maxRetries: 2 });
    const ended500 = { model: 'a', outcome: 'ended', code: 'provider_protocol_error' };
    expect(first.unlistedHop()).toEqual(ended500);
    expect(first.unlistedHop(failure('aborted'))).toEqual(ended500);
    // A run that failed outside the walk (an answer that could not be read): its own error.
    hedge.startAttempt();
    expect(hedge.unlistedHop(failure('invalid_response'))).toEqual({
      model: 'c',
      outcome: 'ended',
      code: 'invalid_response',
    });
    hedge.next(failure('model_busy', 429, 5_000), 0, { ...limits, maxRetries: 0 });
    first.startAttempt();
    first.next(failure('all_providers_failed', 502), 1, { ...limits, maxRetries: 2 });
    // Both runs write one route, in the order their hops came; a failed hop is the model's hop.
    expect(first.unlistedHop()).toBeUndefined();
    expect(hedge.unlistedHop(failure('model_busy'))).toBeUndefined();
    expect(first.hops).toEqual([
      { model: 'c', outcome: 'failed', reason: 'model_busy' },
      { model: 'a', outcome: 'failed', reason: 'all_providers_failed' },
    ]);
    // The failures in the order they came: the 500 retried on `a` too (an attempt, no hop).
    expect(hedge.failed.map(({ model, retried }) => [model, retried === true])).toEqual([
      ['a', true],
      ['c', false],
      ['a', false],
    ]);
  });

  it('moves to the next model at once on a failover reason, recording the hop', () => {
    const walk = walkOver('a', 'b', 'c');
    expect(walk.model).toBe('a');
    expect(walk.body()).toBe('{"model":"a"}');
    expect(walk.next(failure('model_busy', 429, 5_000), 0, { ...limits, maxRetries: 2 })).toEqual({
      now: true,
    });
    expect(walk.model).toBe('b');
    expect(walk.body()).toBe('{"model":"b"}');
    expect(walk.hops).toEqual([{ model: 'a', outcome: 'failed', reason: 'model_busy' }]);
  });

  it('chooses the next model at the hop, by free capacity then, and reports the failover there', () => {
    let full = new Set(['b']);
    const walk = new FailoverWalk({
      models: ['a', 'b', 'c'],
      bodyFor: (model) => model,
      order: (models) => [...models].sort((x, y) => Number(full.has(x)) - Number(full.has(y))),
    });
    const failovers: unknown[] = [];
    const events = {
      failover: (from: string, to: string, reason: string) => failovers.push({ from, to, reason }),
    } as unknown as CallEvents;
    expect(walk.startAttempt(events)).toBe('a');
    walk.next(failure('model_busy', 429, 5_000), 0, { ...limits, maxRetries: 2 });
    expect(failovers).toEqual([]);
    // While the call queued for its next slot, b got free capacity and c filled up.
    full = new Set(['c']);
    expect(walk.startAttempt(events)).toBe('b');
    expect(failovers).toEqual([{ from: 'a', to: 'b', reason: 'model_busy' }]);
    // A retry of the same model (not a failover reason) is not moved elsewhere.
    full = new Set(['b']);
    expect(
      walk.next(failure('provider_protocol_error', 500), 0, { ...limits, maxRetries: 2 }),
    ).toHaveProperty('waitMs');
    expect(walk.startAttempt(events)).toBe('b');
    expect(failovers).toHaveLength(1);
  });

  it('retries the same model, by the retry rules, on a failure that is not a failover reason', () => {
    const walk = walkOver('a', 'b');
    const step = walk.next(failure('client_concurrency_exceeded', 429, 1_000), 0, {
      ...limits,
      maxRetries: 2,
    });
    expect(step).toEqual({ waitMs: 1_000 });
    expect(walk.model).toBe('a');
    expect(walk.hops).toEqual([]);
    expect(
      walk.next(failure('invalid_request_error', 400), 1, { ...limits, maxRetries: 2 }),
    ).toBeUndefined();
  });

  it('after a round of failures: the shortest wait, then only the models worth retrying and free', () => {
    vi.useFakeTimers({ toFake: ['performance'] });
    const walk = walkOver('a', 'b', 'c');
    const retries = { ...limits, maxRetries: 3 };
    const aBusy = failure('model_busy', 429, 3_000);
    walk.next(aBusy, 0, retries);
    walk.next(failure('model_not_found', 404), 0, retries);
    const cBusy = failure('model_busy', 429, 1_000);
    // (Each wait names the failure it is for and its model: the `retry` event's reason, model.)
    expect(walk.next(cBusy, 0, retries)).toEqual({ waitMs: 1_000, failure: cBusy, model: 'c' });
    // b is unknown to the gateway: not worth another round; a asked for 3 s: it waits its turn.
    expect(walk.model).toBe('c');
    vi.advanceTimersByTime(1_000);
    // c asks for 3 s from now, a's 3 s end sooner: the next round is a's alone, for a's failure.
    const step = walk.next(failure('model_busy', 429, 3_000), 1, retries);
    expect(step).toEqual({ waitMs: 2_000, failure: aBusy, model: 'a' });
    expect(walk.model).toBe('a');
    vi.advanceTimersByTime(2_000);
    // a and c are free again after the same second: both, in the list's order.
    expect(walk.next(failure('model_busy', 429, 1_000), 2, retries)).toMatchObject({
      waitMs: 1_000,
    });
    expect(walk.model).toBe('a');
    expect(walk.next(failure('model_busy', 429, 1_000), 3, retries)).toEqual({ now: true });
    expect(walk.model).toBe('c');
  });

  it('weighs a Retry-After against maxRetryAfterMs as the gateway said it, not by what is left', () => {
    vi.useFakeTimers({ toFake: ['performance'] });
    const walk = walkOver('a', 'b');
    const short = { ...limits, maxRetryAfterMs: 10_000, maxRetries: 2 };
    walk.next(failure('model_busy', 429, 20_000), 0, short);
    vi.advanceTimersByTime(15_000);
    // 5 s of a's 20 s are left, under the 10 s limit: a is still not worth waiting for.
    expect(walk.next(failure('model_not_found', 404), 0, short)).toBeUndefined();
  });

  it('ends when no model of the round may be retried, or the retries are used up', () => {
    const refused = walkOver('a', 'b');
    refused.next(failure('model_not_allowed', 403), 0, { ...limits, maxRetries: 2 });
    expect(
      refused.next(failure('model_busy', 429, 120_000), 0, { ...limits, maxRetries: 2 }),
    ).toBeUndefined();
    const spent = walkOver('a', 'b');
    spent.next(failure('model_busy', 429, 0), 2, { ...limits, maxRetries: 2 });
    expect(
      spent.next(failure('model_busy', 429, 0), 2, { ...limits, maxRetries: 2 }),
    ).toBeUndefined();
  });

  it('does not wait for a Retry-After longer than what is left of the deadline', () => {
    const walk = walkOver('a');
    const short = { ...limits, remainingMs: 500 };
    expect(
      walk.next(failure('model_busy', 429, 1_000), 0, { ...short, maxRetries: 2 }),
    ).toBeUndefined();
  });

  it('claimLastAnswer: no later model, no round retrying one with the waits taken and the time left now', () => {
    const walk = walkOver('a', 'b');
    walk.startAttempt();
    expect(walk.claimLastAnswer(300_000)).toBe(false);
    walk.next(failure('model_busy', 429, 5_000), 0, { ...limits, maxRetries: 1 });
    walk.startAttempt();
    // The busy model's round may come: not the last, unless the deadline leaves no time for it.
    expect(walk.claimLastAnswer(300_000)).toBe(false);
    expect(walk.claimLastAnswer(1_000)).toBe(true);
    // A 500 on b waits: that wait spends the one retry, and no round follows b's answer.
    walk.next(failure('provider_protocol_error', 500), 0, { ...limits, maxRetries: 1 });
    walk.startAttempt();
    expect(walk.claimLastAnswer(300_000)).toBe(true);
  });

  it("claimLastAnswer of a hedged call's runs: not while the other may answer; of two refused, the later", () => {
    const first = walkOver('a');
    first.startAttempt();
    expect(first.claimLastAnswer(300_000)).toBe(true);
    const hedge = new FailoverWalk({ models: ['b'], bodyFor: (model) => model, routeOf: first });
    hedge.startAttempt();
    // The hedge may still answer: the first run's refused answer is not the last (it is spent).
    expect(first.claimLastAnswer(300_000)).toBe(false);
    expect(hedge.claimLastAnswer(300_000)).toBe(true);
  });

  it("claimLastAnswer once a hedged call's other run ended: this run's answer is the last", () => {
    const first = walkOver('a');
    const hedge = new FailoverWalk({ models: ['b'], bodyFor: (model) => model, routeOf: first });
    first.startAttempt();
    hedge.startAttempt();
    first.runEnded();
    expect(hedge.claimLastAnswer(300_000)).toBe(true);
  });

  it('reports a model the order put behind one listed after it: once per round, in the list order, after the failover', () => {
    const requested = ['a', 'b', 'c'];
    // The order puts `a` last, always (full, say); the others as listed.
    const order = (models: readonly string[]) =>
      [...models].sort((x, y) => Number(x === 'a') - Number(y === 'a'));
    const told: string[] = [];
    const events = {
      deferred: (defer: { model: string; ahead: string }) =>
        told.push(`deferred ${defer.model} for ${defer.ahead}`),
      failover: (from: string, to: string) => told.push(`failover ${from} to ${to}`),
    } as unknown as CallEvents;
    const walk = new FailoverWalk({
      models: order(requested),
      bodyFor: (model) => model,
      order,
      deferral: {
        requested,
        deferred: (model, ahead) => ({ model, ahead, reason: 'full', detail: `${model} is full` }),
      },
    });
    const busy = () => failure('model_busy', 429, 0);
    expect(walk.startAttempt(events)).toBe('b');
    walk.next(busy(), 0, { ...limits, maxRetries: 1 });
    // Passed over again for c: told once in the round.
    expect(walk.startAttempt(events)).toBe('c');
    walk.next(busy(), 0, { ...limits, maxRetries: 1 });
    expect(walk.startAttempt(events)).toBe('a');
    walk.next(busy(), 0, { ...limits, maxRetries: 1 });
    // The next round puts it back again: told again.
    expect(walk.startAttempt(events)).toBe('b');
    expect(walk.hops.map((hop) => `${hop.model} ${hop.outcome}`)).toEqual([
      'a deferred',
      'b failed',
      'c failed',
      'a failed',
      'a deferred',
    ]);
    expect(told).toEqual([
      'deferred a for b',
      'failover b to c',
      'failover c to a',
      'deferred a for b',
    ]);
  });
});

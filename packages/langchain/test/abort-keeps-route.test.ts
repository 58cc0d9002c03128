// A steered invoke the caller ends (its signal, or LangChain's `timeout` call option) once the
// call has left the model's queue throws core's error for that call: its route and its failover
// summary kept (README: "Errors carry the route"), and handleLLMError gets the same error.
// LangChain's queue races the signal itself and rejects first; the model waits for core's error.

import { createGatewayClient, type GatewayError, isGatewayError } from '@infergate/core';
import { caught, type EmulatedGateway, emulate } from '@infergate/emulator/testing';
import { getRetryable } from '@langchain/core/errors';
import { describe, expect, it } from 'vitest';
import { GatewayChatModel, type GatewayChatModelFields } from '../src/index';

type Hop = { model: string; outcome: string; reason?: string; code?: string };

const hopsOf = (error: unknown): string[] | undefined =>
  (error as { route?: { hops?: readonly Hop[] } } | undefined)?.route?.hops?.map(
    (hop) => `${hop.model}:${hop.outcome}/${hop.reason ?? hop.code}`,
  );

/**
 * A model over `community/general` then `community/tools`, every request held by the emulator (on
 * a client whose catalog is read already), and the error handleLLMError gets.
 */
async function heldRoute(fields: Omit<GatewayChatModelFields, 'model'> = {}) {
  const gateway = await emulate();
  const client = createGatewayClient({ ...gateway.connection, circuitBreaker: false });
  await client.models();
  gateway.hold();
  let report!: (error: unknown) => void;
  const reported = new Promise<unknown>((resolve) => {
    report = resolve;
  });
  const model = new GatewayChatModel('community/general', {
    client,
    fallbackModels: ['community/tools'],
    callbacks: [{ handleLLMError: (error: unknown) => report(error) }],
    ...fields,
  });
  return { gateway, model, reported };
}

/** `heldRoute` with `community/general` answering 502 at once: its fallback's request is held. */
async function midFailover() {
  const route = await heldRoute();
  route.gateway.emulator.injectFault({ fault: 'bad_gateway', model: 'community/general' });
  return route;
}

const FAILED_OVER =
  /^Every model tried failed \(2 attempts\): "community\/general": all_providers_failed/;

/** The error thrown and the one handleLLMError got: the same, with `code` and `route`. */
async function expectRouted(
  thrown: unknown,
  reported: Promise<unknown>,
  code: string,
  hops: string[],
): Promise<void> {
  expect(isGatewayError(thrown) && thrown.code).toBe(code);
  expect(hopsOf(thrown)).toEqual(hops);
  expect(await reported).toBe(thrown);
}

async function settled(gateway: EmulatedGateway): Promise<void> {
  await gateway.untilIdle();
  await gateway.close();
}

/**
 * An invoke of `midFailover`'s model with `options`, ended by `end` once its fallback's request is
 * held: its error, the one handleLLMError got, with `code`, the route (the fallback ended with
 * `code`) and the failover summary; the gateway settled after.
 */
async function endedMidFailover(
  options: Parameters<GatewayChatModel['invoke']>[1],
  end: () => void,
  code: string,
): Promise<GatewayError> {
  const { gateway, model, reported } = await midFailover();
  const pending = caught<GatewayError>(model.invoke('hi', options));
  // The first model failed; the fallback's request is held: end the call while the walk waits on it.
  await gateway.untilHeld(1);
  expect(gateway.counters.requests.chat).toBe(2);
  end();
  const error = await pending;
  await expectRouted(error, reported, code, [
    'community/general:failed/all_providers_failed',
    `community/tools:ended/${code}`,
  ]);
  expect(error.message).toMatch(FAILED_OVER);
  await settled(gateway);
  return error;
}

describe('invoke ended by its caller mid-failover keeps the route', () => {
  it('an abort: code aborted, the route and the failover summary', async () => {
    const controller = new AbortController();
    const error = await endedMidFailover(
      { signal: controller.signal },
      () => controller.abort(),
      'aborted',
    );
    // Still LangChain's abort: named AbortError, never run again by LangChain's retry layers.
    expect(error.name).toBe('AbortError');
    expect(getRetryable(error)).toBe(false);
  });

  it("a signal that times out (LangChain's timeout's kind): code timeout, with the route", async () => {
    const controller = new AbortController();
    const timedOut = new DOMException('The operation timed out.', 'TimeoutError');
    await endedMidFailover(
      { signal: controller.signal },
      () => controller.abort(timedOut),
      'timeout',
    );
  });

  it("the call's timeout option, the fallback held until it passes: code timeout, with the route", async () => {
    // The deadline is the subject: the fallback is held, so only the deadline ends the call.
    await endedMidFailover({ timeout: 1000 }, () => undefined, 'timeout');
  });

  it('an abort mid-hedge: both attempts in the route, ended by the abort', async () => {
    const { gateway, model, reported } = await heldRoute({ hedge: { afterMs: 20 } });
    const controller = new AbortController();
    const pending = caught<GatewayError>(model.invoke('hi', { signal: controller.signal }));
    // The first request and its hedge are both held.
    await gateway.untilHeld(2);
    controller.abort();
    const error = await pending;
    expect(isGatewayError(error) && error.code).toBe('aborted');
    expect(hopsOf(error)?.sort()).toEqual([
      'community/general:ended/aborted',
      'community/tools:ended/aborted',
    ]);
    expect(await reported).toBe(error);
    await settled(gateway);
  });
});

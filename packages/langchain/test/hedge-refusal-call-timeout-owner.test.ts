// A model's hedge left unsent by a call's `timeout` (LangChain turns it into the call's signal) is
// refused before any request, the hedge named as the model's and the deadline as the call's.
import { isGatewayError } from '@infergate/core';
import { caught } from '@infergate/emulator/testing';
import { describe, expect, it } from 'vitest';
import { GatewayChatModel } from '../src/index';
import { recordingGateway } from './helpers';

describe("a model's hedge against a call's timeout", () => {
  it("names the model's hedge and the call's timeout", async () => {
    const { bodies, connection } = await recordingGateway();
    const model = new GatewayChatModel('community/general', {
      ...connection,
      hedge: { afterMs: 500 },
    });
    const error = await caught(() => model.invoke('hi', { timeout: 400 }), isGatewayError);
    expect(error.message).toBe(
      "hedge.afterMs (call option) (500, the model's) is not less than timeoutMs (400, the call's): the hedge would never be sent",
    );
    expect(bodies).toEqual([]);
  });

  it("names the call's timeout when it is shorter than the model's", async () => {
    const { bodies, connection } = await recordingGateway();
    const model = new GatewayChatModel('community/general', {
      ...connection,
      hedge: { afterMs: 500 },
      timeout: 10_000,
    });
    const error = await caught(() => model.stream('hi', { timeout: 400 }), isGatewayError);
    expect(error.message).toContain(
      "(500, the model's) is not less than timeoutMs (400, the call's)",
    );
    expect(bodies).toEqual([]);
  });

  it("names the model's timeout when it is shorter than the call's", async () => {
    const { connection } = await recordingGateway();
    const model = new GatewayChatModel('community/general', {
      ...connection,
      hedge: { afterMs: 500 },
      timeout: 400,
    });
    const error = await caught(() => model.invoke('hi', { timeout: 10_000 }), isGatewayError);
    expect(error.message).toContain(
      "(500, the model's) is not less than timeoutMs (400, the model's)",
    );
  });
});

// A hedge a model's settings and a call's options leave unsent together is refused at the call
// before any request, each value named as whose it is: the model's `hedge`, the call's stall
// timeout (core sees both as the call's; the adapter's check says which is the model's).
import { isGatewayError } from '@infergate/core';
import { caught } from '@infergate/emulator/testing';
import { describe, expect, it } from 'vitest';
import { GatewayChatModel } from '../src/index';
import { recordingGateway } from './helpers';

describe("a hedge the model's settings and the call's leave unsent", () => {
  it("names the model's hedge and the call's firstChunkTimeoutMs", async () => {
    const { bodies, connection } = await recordingGateway();
    const model = new GatewayChatModel('community/general', {
      ...connection,
      hedge: { afterMs: 500 },
    });
    const error = await caught(
      () => model.invoke('hi', { firstChunkTimeoutMs: 100 }),
      isGatewayError,
    );
    expect(error.code).toBe('invalid_request_error');
    expect(error.message).toBe(
      "hedge.afterMs (call option) (500, the model's) is not less than firstChunkTimeoutMs (100, the call's): the stall moves the call on before the hedge is due",
    );
    expect(bodies).toEqual([]);
  });

  it("names the call's hedge and the model's firstChunkTimeoutMs", async () => {
    const { bodies, connection } = await recordingGateway();
    const model = new GatewayChatModel('community/general', {
      ...connection,
      firstChunkTimeoutMs: 100,
    });
    const error = await caught(
      () => model.invoke('hi', { hedge: { afterMs: 500 } }),
      isGatewayError,
    );
    expect(error.message).toContain(
      "(500, the call's) is not less than firstChunkTimeoutMs (100, the model's)",
    );
    expect(bodies).toEqual([]);
  });

  it("names the model's timeout as the deadline", async () => {
    const { connection } = await recordingGateway();
    const model = new GatewayChatModel('community/general', { ...connection, timeout: 1000 });
    const error = await caught(
      () => model.invoke('hi', { hedge: { afterMs: 5000 } }),
      isGatewayError,
    );
    expect(error.message).toContain(
      "(5000, the call's) is not less than timeoutMs (1000, the model's)",
    );
  });
});

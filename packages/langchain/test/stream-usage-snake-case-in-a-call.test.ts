// `streamUsage` is a call option as well as a model field: a call's `stream_usage` in its
// `modelKwargs` is refused before any request saying to pass `streamUsage` with the call (which
// does what was meant: no `stream_options` sent), not to give it to the model's constructor.
import { isGatewayError } from '@infergate/core';
import { caught } from '@infergate/emulator/testing';
import { describe, expect, it } from 'vitest';
import { GatewayChatModel } from '../src/index';
import { recordingGateway } from './helpers';

const SAYS =
  '`stream_usage` is no request field: `streamUsage` is a call option: pass `{ streamUsage }` with the call';

async function drained(stream: Promise<AsyncIterable<unknown>>): Promise<void> {
  for await (const _ of await stream);
}

describe("a call's stream_usage", () => {
  it('in its modelKwargs: refused, naming the call option, not the model field', async () => {
    const { bodies, connection } = await recordingGateway();
    const model = new GatewayChatModel('community/general', connection);
    const options = { modelKwargs: { stream_usage: false } };
    const error = await caught(() => drained(model.stream('hi', options)), isGatewayError);
    expect(error.code).toBe('invalid_request_error');
    expect(error.field).toBe('stream_usage');
    expect(error.message).toContain(SAYS);
    expect(error.message).not.toContain('GatewayChatModel({');
    expect(bodies).toHaveLength(0);
  });

  it('among its options: refused as a near miss of the call option', async () => {
    const { bodies, connection } = await recordingGateway();
    const model = new GatewayChatModel('community/general', connection);
    const options = { stream_usage: false } as never;
    const error = await caught(() => drained(model.stream('hi', options)), isGatewayError);
    expect(error.message).toContain('did you mean `streamUsage`?');
    expect(bodies).toHaveLength(0);
  });

  it('the call option it names does what was meant: no stream_options sent', async () => {
    const { bodies, connection } = await recordingGateway();
    const model = new GatewayChatModel('community/general', connection);
    await drained(model.stream('hi', { streamUsage: false }));
    expect(bodies).toHaveLength(1);
    expect(bodies[0]).not.toHaveProperty('stream_options');
  });
});

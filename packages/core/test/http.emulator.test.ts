import { caught, emulate } from '@infergate/emulator/testing';
import { afterAll, describe, expect, it } from 'vitest';
import { isGatewayError } from '../src/index';
import { clientOn, hi } from './helpers';

const server = await emulate({ as: 'http', scenario: { latencyMs: 1 }, hooks: { afterAll } });
const client = clientOn(server);

describe('over real HTTP (node fetch and sockets)', () => {
  it('chats and streams', async () => {
    expect((await client.chat(hi())).response.choices[0]?.message.content).toBe(
      'Echo: hello there',
    );
    const stream = await client.chatStream(hi('community/general', '[[chunks:50]]'));
    expect((await stream.result()).finishReason).toBe('stop');
  });

  it('a destroyed socket mid-stream is stream_incomplete and frees the slot', async () => {
    const stream = await client.chatStream(hi('community/general', '[[chunks:50]]'), {
      headers: { 'X-Emulator-Fault': 'stream_cut; afterChunks=3' },
    });
    const error = await caught(() => stream.result(), isGatewayError);
    expect(error.code).toBe('stream_incomplete');
    // (A cut request's slot comes back once the gateway can have seen the close.)
    await client.budget.whenIdle();
    expect(client.budget.isIdle).toBe(true);
  });

  it('a dropped connection is retried, then network_error', async () => {
    server.emulator.resetCounters();
    const error = await caught(
      () => client.chat(hi(), { headers: { 'X-Emulator-Fault': 'drop_connection' } }),
      isGatewayError,
    );
    expect(error.code).toBe('network_error');
    expect(server.emulator.counters.requests.chat).toBe(3);
  });

  it('transcribes a multipart upload and keeps 4 in flight', async () => {
    const wav = new Uint8Array(64);
    wav.set([0x52, 0x49, 0x46, 0x46, 56, 0, 0, 0, 0x57, 0x41, 0x56, 0x45]);
    expect(typeof (await client.transcribe({ audio: new File([wav], 'a.wav') })).text).toBe(
      'string',
    );
    server.emulator.resetCounters();
    await Promise.all(Array.from({ length: 20 }, () => client.chat(hi())));
    expect(server.emulator.counters.maxInflight[server.apiKey]).toBeLessThanOrEqual(4);
    expect(server.emulator.counters.concurrencyRejections).toBe(0);
  });

  it('aborting mid-stream frees the slot and the server sees the request end', async () => {
    const controller = new AbortController();
    const stream = await client.chatStream(hi('community/general', '[[chunks:100000]]'), {
      signal: controller.signal,
    });
    let n = 0;
    const error = await caught(async () => {
      for await (const event of stream)
        if (event.type === 'text-delta' && ++n === 5) controller.abort();
    }, isGatewayError);
    expect(error.code).toBe('aborted');
    // (A cut request's slot comes back once the gateway can have seen the close.)
    await client.budget.whenIdle();
    expect(client.budget.isIdle).toBe(true);
    await server.untilCancelled();
    await server.untilIdle();
  });
});

// docs/gateway-protocol.md §5.5 (a stream's first event is read before it is handed over), §4.7
// (a stall before the first content fails over): `chatStream`'s `onHeaders` tells each 2xx
// answer's headers as they come, before the stream resolves (for adapters whose framework hands
// a stream on at its headers and starts its own first-chunk clock then).
import { caught, emulate } from '@infergate/emulator/testing';
import { describe, expect, it } from 'vitest';
import { isGatewayError } from '../src/index';
import { clientOn, hi } from './helpers';

describe('chatStream({ onHeaders })', () => {
  it('is told the headers while the first event is still awaited', async () => {
    const gateway = await emulate();
    const { emulator } = gateway;
    emulator.injectFault({ fault: 'stall_first_chunk', model: 'community/general', ms: 60_000 });
    const controller = new AbortController();
    const told: { status: number; model: string | null }[] = [];
    let headersIn!: () => void;
    const heard = new Promise<void>((resolve) => {
      headersIn = resolve;
    });
    let settled = false;
    const opening = clientOn(gateway)
      .chatStream(hi('community/general'), {
        signal: controller.signal,
        onHeaders: ({ status, headers }) => {
          told.push({ status, model: headers.get('x-service-model') });
          headersIn();
        },
      })
      .finally(() => {
        settled = true;
      });
    await heard;
    expect(told).toEqual([{ status: 200, model: 'community/general' }]);
    // The first event is held by the emulator: the stream has not resolved.
    expect(settled).toBe(false);
    controller.abort();
    expect(await caught(() => opening, isGatewayError)).toMatchObject({ code: 'aborted' });
  });

  it('is told each answer a failover reaches, the answering one last', async () => {
    const gateway = await emulate();
    const { emulator } = gateway;
    emulator.injectFault({ fault: 'stall_first_chunk', model: 'community/general', ms: 60_000 });
    const models: (string | null)[] = [];
    const stream = await clientOn(gateway).chatStream(hi('community/general', 'one'), {
      fallbackModels: ['community/streamer'],
      firstChunkTimeoutMs: 50,
      onHeaders: ({ headers }) => models.push(headers.get('x-service-model')),
    });
    expect(models).toEqual(['community/general', 'community/streamer']);
    expect((await stream.result()).text).toBe('Echo: one');
  });

  it('is never told an error answer, and a call refused before sending tells nothing', async () => {
    const gateway = await emulate();
    const { emulator } = gateway;
    emulator.injectFault({ fault: 'rate_limit', model: 'community/general', retryAfter: 0 });
    let told = 0;
    const onHeaders = () => {
      told++;
    };
    const client = clientOn(gateway);
    const refused = await caught(
      () => client.chatStream(hi('community/general'), { maxRetries: 0, onHeaders }),
      isGatewayError,
    );
    expect(refused).toMatchObject({ status: 429 });
    expect(told).toBe(0);
    const bad = await caught(
      () => client.chatStream(hi(), { onHeaders: 'yes' as unknown as () => void }),
      isGatewayError,
    );
    expect(bad).toMatchObject({ code: 'invalid_request_error', field: 'onHeaders' });
    expect(emulator.counters.requests.chat).toBe(1);
  });
});

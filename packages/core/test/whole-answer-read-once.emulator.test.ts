import { emulate } from '@infergate/emulator/testing';
import { describe, expect, it } from 'vitest';
import type { GatewayClientOptions, GatewayEvent } from '../src';
import { caught, hi, oneSlotClient } from './helpers';

// docs/gateway-protocol.md §2.5, §5.3, §10.4: a whole JSON answer's body is read once, within its
// attempt (for an error object it may report instead of an answer), and that read is the one its
// reader uses: no copy of the body is made. A read that fails or is too large is not retried: the
// call fails as it always did (`network_error`, `response_too_large`), its slot's `released`
// before its `done`.
const MODEL = 'community/streamer';
const capabilities = ['chat', 'streaming'];
const json = { 'content-type': 'application/json' };

type Answer = (real: Response) => Response;

/** A client whose POSTs are answered by `answer` (given the emulator's answer); its events kept. */
async function clientWith(answer: Answer, options: GatewayClientOptions = {}) {
  const gateway = await emulate();
  const { fetch: gatewayFetch } = gateway.connection;
  const posts = { count: 0 };
  const events: GatewayEvent[] = [];
  const fetch: typeof globalThis.fetch = async (input, init) => {
    const real = await gatewayFetch(input, init);
    if (init?.method !== 'POST') return real;
    posts.count++;
    return answer(real);
  };
  const client = oneSlotClient(gateway, fetch, {
    onEvent: (event: GatewayEvent) => {
      events.push(event);
    },
    ...options,
  });
  return { client, posts, events };
}

/** The types of the call's last events. */
const lastTypes = (events: GatewayEvent[], count: number) =>
  events.slice(-count).map((event) => event.type);

describe('a whole JSON answer is read once', () => {
  it('chat: the body is read once, never copied (no clone)', async () => {
    let clones = 0;
    const { client } = await clientWith((real) => {
      real.clone = () => {
        clones++;
        throw new Error('a whole answer is copied');
      };
      return real;
    });
    const result = await client.chat(hi(MODEL), { capabilities });
    expect(result.answer.text).not.toBe('');
    expect(clones).toBe(0);
  });

  it('a body cut while it is read: network_error, not retried, released before done', async () => {
    const cut = () => {
      const body = new ReadableStream<Uint8Array>({
        start(controller) {
          controller.enqueue(new TextEncoder().encode('{"choices":['));
          controller.error(new Error('connection reset'));
        },
      });
      return new Response(body, { headers: json });
    };
    const { client, posts, events } = await clientWith(cut);
    const error = await caught(() => client.chat(hi(MODEL), { capabilities }));
    expect(error).toMatchObject({ code: 'network_error', status: 200 });
    expect(posts.count).toBe(1);
    expect(lastTypes(events, 2)).toEqual(['released', 'done']);
  });

  it('a body over maxResponseBytes: response_too_large, not retried, released before done', async () => {
    const big = () => new Response(`{"choices":[],"pad":"${'x'.repeat(4096)}"}`, { headers: json });
    const { client, posts, events } = await clientWith(big, { maxResponseBytes: 1024 });
    const error = await caught(() => client.chat(hi(MODEL), { capabilities }));
    expect(error).toMatchObject({ code: 'response_too_large' });
    expect(posts.count).toBe(1);
    expect(lastTypes(events, 2)).toEqual(['released', 'done']);
  });
});

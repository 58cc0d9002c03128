import type { GatewayConnection } from '@infergate/emulator/testing';

// Answers whose body trickles in, and a fetch that serves one model's chat requests with them:
// for tests of a slow error answer's read (docs/gateway-protocol.md §10.1, §4.7).

const encoder = new TextEncoder();

/** A body that sends `start` at once, then 1 KiB every 50 ms, and never ends. */
export function trickle(start: string): ReadableStream<Uint8Array> {
  let started = false;
  return new ReadableStream<Uint8Array>({
    async pull(controller) {
      if (!started) {
        started = true;
        controller.enqueue(encoder.encode(start));
        return;
      }
      await new Promise((resolve) => setTimeout(resolve, 50));
      controller.enqueue(encoder.encode('x'.repeat(1024)));
    },
  });
}

/** A 502 whose JSON body's start comes at once, then trickles in (`trickle`), never ending. */
export const trickled502 = () =>
  new Response(trickle('{"error":{"code":"upstream_error","message":"'), {
    status: 502,
    headers: { 'content-type': 'application/json' },
  });

/**
 * A fetch on `gateway` whose chat POSTs for `model` get `answer()`, the others the emulator's
 * answers; `sent` lists the model of each POST, in order.
 */
export function answeringModel(
  gateway: { connection: GatewayConnection },
  model: string,
  answer: () => Response,
) {
  const sent: string[] = [];
  const fetch: typeof globalThis.fetch = async (input, init) => {
    if ((init?.method ?? 'GET') === 'GET') return gateway.connection.fetch(input, init);
    const asked = JSON.parse(String(init?.body)).model as string;
    sent.push(asked);
    return asked === model ? answer() : gateway.connection.fetch(input, init);
  };
  return { fetch, sent };
}

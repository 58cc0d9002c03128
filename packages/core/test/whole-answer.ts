// A whole answer streamed with its OpenTelemetry spans recorded: apart from helpers.ts, so that
// the tests that do not trace never load the OpenTelemetry SDK.
import { emulate } from '@infergate/emulator/testing';
import { expect } from 'vitest';
import type { ChatStreamOptions } from '../src/chat/chat-calls';
import type { GatewayEvent } from '../src/events/gateway-events';
import { otelEvents } from '../src/otel';
import type { ChatRequest } from '../src/protocol/wire-types';
import { clientOn } from './helpers';
import { otelRecorder } from './otel-recorder';

/** The gateway's chat bodies handed over in one chunk: the whole answer decoded at one read. */
function inOneChunk(gatewayFetch: typeof fetch): typeof fetch {
  return async (input, init) => {
    const response = await gatewayFetch(input, init);
    return new Response(await response.arrayBuffer(), response);
  };
}

/**
 * `request` streamed (with an abort `controller`'s signal, then `options`) by a client whose chat
 * bodies come in one chunk, so the answer is read whole before the caller took any event: the
 * slot is back at once (checked). Its chat `events` and `otel` spans are recorded.
 */
export async function wholeAnswer(request: ChatRequest, options: ChatStreamOptions = {}) {
  const gateway = await emulate();
  const otel = otelRecorder();
  const traced = otelEvents({ tracer: otel.tracer });
  const events: GatewayEvent[] = [];
  const client = clientOn(gateway, {
    fetch: inOneChunk(gateway.fetch),
    onEvent: (event) => {
      traced(event);
      if (event.operation === 'chat') events.push(event);
    },
  });
  const controller = new AbortController();
  const stream = await client.chatStream(request, { signal: controller.signal, ...options });
  // The body has ended: its slot is back before anything was read.
  await client.budget.whenIdle();
  expect(client.budget.active).toBe(0);
  return { gateway, otel, events, controller, stream };
}

// docs/gateway-protocol.md §4.7 rule 3 and the README's "Failover at once": a steered stream that
// fails before any content reached the caller moves to its next model; one that failed after its
// content (even in the same network read) is handed over, its content first, then its failure.
import { caught, emulate } from '@infergate/emulator/testing';
import { describe, expect, it } from 'vitest';
import { isGatewayError } from '../src/index';
import { hi, only, recordingClient } from './helpers';

const fallbackModels = ['community/streamer'];
const PLACE = {
  type: 'object',
  properties: { city: { type: 'string' } },
  required: ['city'],
  additionalProperties: false,
};

describe('a steered stream failing before its first content', () => {
  it.each([
    ['an error event after the role chunk', 'stream_error', 1, 'provider_request_failed'],
    ['an error event as the very first event', 'stream_error', 0, 'provider_request_failed'],
    [
      'a protocol error event after the role chunk',
      'stream_protocol_error',
      1,
      'provider_protocol_error',
    ],
    [
      'an event that cannot be read after the role chunk',
      'malformed_event',
      1,
      'provider_protocol_error',
    ],
  ] as const)('%s: moves to the next model at once', async (_what, fault, afterChunks, reason) => {
    const gateway = await emulate();
    const { client, events } = recordingClient(gateway, { maxRetries: 0 });
    const { emulator } = gateway;
    emulator.injectFault({ fault, model: 'community/general', afterChunks, times: 1 });
    const stream = await client.chatStream(hi(), { fallbackModels });
    expect((await stream.result()).text).toBe('Echo: hello there');
    expect(stream.route.hops).toEqual([
      { model: 'community/general', outcome: 'failed', reason },
      { model: 'community/streamer', outcome: 'answered' },
    ]);
    expect(stream.route.answeredBy).toBe('community/streamer');
    expect(only(events, 'failover')).toMatchObject([
      { from: 'community/general', to: 'community/streamer', reason },
    ]);
    // The failed attempt had its 200: its `response` event says so.
    expect(only(events, 'response')[0]).toMatchObject({ ok: false, status: 200, code: reason });
  });
});

describe('a steered stream whose failure follows its content in the same read', () => {
  it.each([
    ['an error event', 'stream_error', 'provider_request_failed', 'Echo: '],
    ['no finish before [DONE]', 'no_finish', 'stream_incomplete', 'Echo: hello there'],
  ] as const)(
    '%s: the content is handed over, then the failure, as without a list',
    async (_what, fault, code, content) => {
      // Over HTTP, the emulator writes the whole stream at once: one read holds content and failure.
      const gateway = await emulate({ as: 'http' });
      try {
        const { client, events } = recordingClient(gateway, { maxRetries: 0 });
        const { emulator } = gateway;
        // no_finish sends every chunk (it has no afterChunks: the emulator refuses one).
        const after = fault === 'no_finish' ? {} : { afterChunks: 2 };
        emulator.injectFault({ fault, model: 'community/general', ...after, times: 1 });
        const stream = await client.chatStream(hi(), { fallbackModels });
        let text = '';
        const error = await caught(async () => {
          for await (const event of stream) if (event.type === 'text-delta') text += event.delta;
        }, isGatewayError);
        expect(text).toBe(content);
        expect(error.code).toBe(code);
        // Content reached the caller: no other model is asked.
        expect(only(events, 'attempt').map((event) => event.model)).toEqual(['community/general']);
        expect(only(events, 'response')).toMatchObject([{ ok: true, status: 200 }]);
        expect(only(events, 'done')).toMatchObject([
          { ok: false, servedModel: 'community/general', error: { code } },
        ]);
      } finally {
        await gateway.close();
      }
    },
  );
});

describe('a held structured stream whose failure follows its content in the same read', () => {
  const model = 'community/json-schema';
  const asking = {
    model,
    messages: [{ role: 'user' as const, content: 'Where is "Oslo"?' }],
    response_format: {
      type: 'json_schema' as const,
      json_schema: { name: 'place', schema: PLACE },
    },
  };

  it('the last model: the content its map let through is handed over, then the failure', async () => {
    const gateway = await emulate({ as: 'http' });
    try {
      const { client, events } = recordingClient(gateway, { maxRetries: 0 });
      const { emulator } = gateway;
      emulator.injectFault({ fault: 'stream_error', model, afterChunks: 2, times: 1 });
      // No model after it: its JSON is let through as it comes.
      const stream = await client.chatStream(asking);
      let text = '';
      const error = await caught(async () => {
        for await (const event of stream) if (event.type === 'text-delta') text += event.delta;
      }, isGatewayError);
      expect(JSON.parse(text)).toEqual({ city: 'Oslo' });
      expect(error.code).toBe('provider_request_failed');
      expect(only(events, 'attempt').map((event) => event.model)).toEqual([model]);
    } finally {
      await gateway.close();
    }
  });

  it('a model left after it: held to its end, so the failure moves on to it', async () => {
    const gateway = await emulate({ as: 'http' });
    try {
      const { client, events } = recordingClient(gateway, { maxRetries: 0 });
      gateway.emulator.injectFault({ fault: 'stream_error', model, afterChunks: 2, times: 1 });
      const stream = await client.chatStream(asking, { fallbackModels: ['community/tools'] });
      let text = '';
      for await (const event of stream) if (event.type === 'text-delta') text += event.delta;
      expect(JSON.parse(text)).toEqual({ city: 'Oslo' });
      expect((await stream.result()).structured?.method).toBe('tools');
      expect(only(events, 'attempt').map((event) => event.model)).toEqual([
        model,
        'community/tools',
      ]);
    } finally {
      await gateway.close();
    }
  });
});

describe('a refused answer keeps its status on its response event', () => {
  it('a structured answer failing its check: status 200, then the next model', async () => {
    const listed = { owned_by: 'service-community', online: true } as const;
    const gateway = await emulate({
      scenario: {
        models: {
          'community/so-cut': {
            ...listed,
            capabilities: ['chat', 'streaming', 'json_schema'],
            jsonAnswers: { invalidShare: 1 },
          },
          'community/so-native': { ...listed, capabilities: ['chat', 'streaming', 'json_schema'] },
        },
      },
    });
    const { client, events } = recordingClient(gateway, { maxRetries: 0 });
    await client.chat(
      {
        model: 'community/so-cut',
        messages: [{ role: 'user', content: 'Where is "Oslo"?' }],
        response_format: { type: 'json_schema', json_schema: { name: 'place', schema: PLACE } },
      },
      { fallbackModels: ['community/so-native'] },
    );
    expect(only(events, 'response')).toMatchObject([
      { attempt: 1, ok: false, status: 200, code: 'invalid_structured_output' },
      { attempt: 2, ok: true, status: 200 },
    ]);
  });
});

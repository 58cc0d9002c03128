// docs/gateway-protocol.md §4.3 (`usage`), §4.7: a hedged structured call whose first model's answer
// was refused by the schema's check while the hedge was in flight, the hedge failing after it (a
// 503): the call ends with the refusal, its hop the route's last, so `includeRaw`'s
// `usage_metadata` counts the refused answer's tokens once (rv-16steer F3).
import { chatCompletion, emulate } from '@infergate/emulator/testing';
import type { AIMessage } from '@langchain/core/messages';
import { describe, expect, it } from 'vitest';
import { GatewayChatModel, type GatewayResponseMetadata } from '../src/index';

const FIRST = 'community/general';
const HEDGE = 'community/tools';
const usage = { prompt_tokens: 7, completion_tokens: 5, total_tokens: 12 };
const schema = {
  type: 'object',
  title: 'x',
  properties: { a: { type: 'string' } },
  required: ['a'],
};

describe('withStructuredOutput includeRaw on a hedged call refused before its hedge failed', () => {
  it("counts the refused answer's usage once", async () => {
    const gateway = await emulate();
    let hedgeSent: () => void = () => {};
    const sent = new Promise<void>((resolve) => {
      hedgeSent = resolve;
    });
    let firstFailed: () => void = () => {};
    const failed = new Promise<void>((resolve) => {
      firstFailed = resolve;
    });
    const fetch: typeof globalThis.fetch = async (input, init) => {
      const body = JSON.parse(String(init?.body ?? '{}')) as { model?: string };
      if (body.model === FIRST) {
        await sent;
        return Response.json(chatCompletion(FIRST, '{"b":1}', { usage }), {
          headers: { 'x-service-model': FIRST },
        });
      }
      if (body.model === HEDGE) {
        hedgeSent();
        await failed;
        const error = { error: { code: 'provider_unavailable', message: 'x' } };
        return new Response(JSON.stringify(error), {
          status: 503,
          headers: { 'content-type': 'application/json' },
        });
      }
      return gateway.connection.fetch(input, init);
    };
    const model = new GatewayChatModel(FIRST, {
      ...gateway.connection,
      fetch,
      maxRetries: 0,
      fallbackModels: [HEDGE],
      hedge: { afterMs: 1, maxExtra: 1 },
      onEvent: (event) => {
        if (event.type === 'response' && event.code === 'invalid_structured_output') firstFailed();
      },
    });
    const out = await model
      .withStructuredOutput(schema, { includeRaw: true, method: 'jsonSchema' })
      .invoke('give json');
    expect(out.parsed).toBeNull();
    const raw = out.raw as AIMessage;
    const { route } = raw.response_metadata as GatewayResponseMetadata;
    expect(route?.hops.at(-1)).toMatchObject({ model: FIRST, outcome: 'failed', usage });
    expect(raw.usage_metadata).toMatchObject({
      input_tokens: 7,
      output_tokens: 5,
      total_tokens: 12,
    });
    await gateway.close();
  });
});

import { emulate } from '@infergate/emulator/testing';
import { BaseCallbackHandler } from '@langchain/core/callbacks/base';
import { afterAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { GatewayChatModel, type GatewayResponseMetadata } from '../index';

// What a `withStructuredOutput` run traces (README "profile, tracing, serialisation"): the request
// as handed to core (`response_format: json_schema`, whatever `method`), the caller's `method` and
// core's order beside it; what each model was sent is the route's (rv-lc15 F1).
const emulated = await emulate();
afterAll(() => emulated.close());
const Place = z.object({ city: z.string() });

describe('withStructuredOutput: traced params and the method sent', () => {
  it.each([
    ['community/tools', 'functionCalling', 'tools'],
    ['community/json-object', 'jsonMode', 'json_object'],
    ['community/json-object', 'functionCalling', 'json_object'],
  ] as const)('%s, method %s: sent as %s', async (id, method, sent) => {
    let extra: Record<string, unknown> | undefined;
    const handler = BaseCallbackHandler.fromMethods({
      handleChatModelStart(_model, _messages, _run, _parent, extraParams) {
        extra = extraParams;
      },
    });
    const model = new GatewayChatModel(id, emulated.connection);
    const { raw } = await model
      .withStructuredOutput(Place, { name: 'place', method, includeRaw: true })
      .invoke('Tell me about "Oslo"', { callbacks: [handler] });
    const traced = extra?.invocation_params as Record<string, { type?: string }>;
    expect(traced.response_format?.type).toBe('json_schema');
    const options = extra?.options as {
      ls_structured_output_format: { kwargs: { method: string } };
      structuredOutput: { methods: string[] };
    };
    expect(options.ls_structured_output_format.kwargs.method).toBe(method);
    expect(options.structuredOutput.methods[0]).toBe(
      method === 'jsonMode' ? 'json_object' : 'tools',
    );
    const route = (raw.response_metadata as GatewayResponseMetadata).route;
    const answered = route?.hops.at(-1);
    expect(answered?.outcome === 'answered' && answered.structured?.method).toBe(sent);
  });
});

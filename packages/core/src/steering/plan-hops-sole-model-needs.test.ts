import { caught, emulate } from '@infergate/emulator/testing';
import { describe, expect, it } from 'vitest';
import { clientOn } from '../../test/helpers';
import type { GatewayError } from '../errors/errors';

// A call to one model asking for a schema steers, but what the request itself needs (its tools)
// is judged as on the plain path: a model lacking it is `unsupported_model_capability` with
// `missing` and `alternatives`, the caller's `capabilities` deciding when given. Only a model
// with those needs and no way to serve the schema is `no_model_can_serve` (rv-ai15 F1).
const WEATHER = {
  type: 'function' as const,
  function: { name: 'weather', parameters: { type: 'object', properties: {} } },
};
const PLACE = { type: 'object', properties: { city: { type: 'string' } }, required: ['city'] };

const asking = (model: string, schema: boolean) => ({
  model,
  messages: [{ role: 'user' as const, content: 'weather "Oslo"' }],
  tools: [WEATHER],
  ...(schema && {
    response_format: {
      type: 'json_schema' as const,
      json_schema: { name: 'place', schema: PLACE },
    },
  }),
});

describe('one model, tools and a schema: the request’s own needs', () => {
  it('a model lacking tools is refused as without a schema, nothing sent', async () => {
    const emulated = await emulate();
    const client = clientOn(emulated);
    for (const stream of [false, true]) {
      const send = (schema: boolean) => {
        const request = asking('community/json-schema', schema);
        return caught<GatewayError>(stream ? client.chatStream(request) : client.chat(request));
      };
      const plain = await send(false);
      const error = await send(true);
      expect(error).toMatchObject({
        code: 'unsupported_model_capability',
        model: 'community/json-schema',
        missing: ['tools'],
        alternatives: plain.alternatives,
        message: plain.message,
      });
    }
    expect(emulated.counters.requests.chat ?? 0).toBe(0);
    await emulated.close();
  });

  it('a model with tools but no way to serve the schema beside them: no_model_can_serve', async () => {
    const emulated = await emulate();
    const client = clientOn(emulated);
    const error = await caught<GatewayError>(client.chat(asking('combo/t', true)));
    expect(error.code).toBe('no_model_can_serve');
    expect(error.message).toContain('not tools: the request has tools of its own');
    expect(error.skipped?.map((skip) => [skip.model, skip.reason])).toEqual([
      ['combo/t', 'missing_capability'],
    ]);
    expect(emulated.counters.requests.chat ?? 0).toBe(0);
    await emulated.close();
  });

  it('the caller’s capabilities decide, as without a schema', async () => {
    const emulated = await emulate();
    const client = clientOn(emulated);
    // Said to lack tools: refused, though the catalog lists them.
    const lacking = await caught<GatewayError>(
      client.chat(asking('community/general', true), { capabilities: ['chat', 'json_schema'] }),
    );
    expect(lacking).toMatchObject({ code: 'unsupported_model_capability', missing: ['tools'] });
    expect(emulated.counters.requests.chat ?? 0).toBe(0);
    // Said to have them: sent (the gateway is the judge then), as the call without a schema is.
    const known = { capabilities: ['chat', 'tools', 'json_schema'] };
    const sent = await caught<GatewayError>(
      client.chat(asking('community/json-schema', true), known),
    );
    expect(sent.code).not.toBe('no_model_can_serve');
    expect(emulated.counters.requests.chat).toBe(1);
    await emulated.close();
  });

  it('an id the catalog does not list is model_not_found, with capabilities given too', async () => {
    const emulated = await emulate();
    const client = clientOn(emulated);
    const known = { capabilities: ['chat', 'tools', 'json_schema'] };
    for (const options of [{}, known]) {
      const error = await caught<GatewayError>(
        client.chat(asking('community/genral', true), options),
      );
      expect(error.code).toBe('model_not_found');
    }
    expect(emulated.counters.requests.chat ?? 0).toBe(0);
    await emulated.close();
  });

  it('an own model the catalog does not list is asked, unchecked', async () => {
    const emulated = await emulate();
    const client = clientOn(emulated);
    await caught<GatewayError>(client.chat(asking('my/offline-model', true)));
    expect(emulated.counters.requests.chat).toBe(1);
    await emulated.close();
  });
});

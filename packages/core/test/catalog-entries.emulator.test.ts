// How the client reads `GET /models` entries it cannot fully read (an entry without a
// `capabilities` list, one without an id) and a burst of calls naming a model that has just come
// online: docs/gateway-protocol.md §3.1, §3.3, §4.2.
import type { ModelSpec } from '@infergate/emulator';
import { caught, emulate } from '@infergate/emulator/testing';
import { describe, expect, it } from 'vitest';
import { type GatewayEvent, isGatewayError } from '../src/index';
import { clientOn, hi } from './helpers';

describe('an entry without a capabilities list', () => {
  it('is unknown, not "none": the chat is sent, as to an unlisted model', async () => {
    const gateway = await emulate({
      scenario: { models: { 'x/unsaid': { capabilities: ['tools'], listing: 'no_capabilities' } } },
    });
    const client = clientOn(gateway);
    const listed = (await client.models()).find((model) => model.id === 'x/unsaid');
    expect(listed).toBeDefined();
    expect(listed?.capabilities).toBeUndefined();
    const result = await client.chat(hi('x/unsaid'));
    expect(result.answer.text).toBeTruthy();
    // A stream too: the gateway decides (this model does not stream: its refusal, not ours).
    const refused = await caught(client.chatStream(hi('x/unsaid')));
    expect(isGatewayError(refused) && refused.status).toBe(400);
    expect(gateway.emulator.counters.requests.chat).toBe(2);
    // The client's gate says so: unchecked (undefined), as for an offline own model.
    expect(await client.checkModel('x/unsaid', ['chat', 'tools'])).toBeUndefined();
  });

  it('is asked for a schema by the first allowed method, as an unlisted own model', async () => {
    const gateway = await emulate({
      scenario: {
        models: {
          'x/unsaid': { capabilities: ['chat', 'json_schema'], listing: 'no_capabilities' },
        },
      },
    });
    const schema = {
      type: 'object',
      properties: { city: { type: 'string' } },
      required: ['city'],
      additionalProperties: false,
    };
    const result = await clientOn(gateway).chat({
      ...hi('x/unsaid'),
      response_format: { type: 'json_schema', json_schema: { name: 'place', schema } },
    });
    expect(result.structured).toMatchObject({
      method: 'json_schema',
      value: { city: expect.any(String) },
    });
    expect(result.route.hops).toMatchObject([{ model: 'x/unsaid', outcome: 'answered' }]);
    expect(gateway.emulator.counters.requests.chat).toBe(1);
  });
});

describe('an entry without an id', () => {
  it('is left out; the other entries stay usable', async () => {
    const gateway = await emulate({
      scenario: { models: { 'x/broken': { capabilities: ['chat'], listing: 'no_id' } } },
    });
    const client = clientOn(gateway);
    const models = await client.models();
    expect(models.length).toBeGreaterThan(1);
    expect(models.every((model) => typeof model.id === 'string')).toBe(true);
    const result = await client.chat(hi('community/general'));
    expect(result.answer.text).toBeTruthy();
  });

  it('is reported once per read (an entry-skipped event before its done), the others served', async () => {
    const gateway = await emulate({
      scenario: { models: { 'x/broken': { capabilities: ['chat'], listing: 'no_id' } } },
    });
    const events: GatewayEvent[] = [];
    const client = clientOn(gateway, { onEvent: (event) => events.push(event) });
    const first = await client.models();
    client.refreshCatalog();
    const second = await client.models();
    expect(second).toEqual(first);
    expect(first.some((model) => model.id === 'community/general')).toBe(true);
    expect(gateway.emulator.counters.requests.models).toBe(2);
    const skipped = events.filter((event) => event.type === 'entry-skipped');
    expect(skipped).toHaveLength(2);
    // Where the entry sits in the answer as the gateway sends it.
    const answer = await gateway.fetch(`${gateway.baseURL}/models`, {
      headers: { authorization: `Bearer ${gateway.apiKey}` },
    });
    const listed = ((await answer.json()) as { data: { id?: unknown }[] }).data;
    const index = listed.findIndex((entry) => typeof entry.id !== 'string');
    expect(first).toHaveLength(listed.length - 1);
    for (const event of skipped) {
      expect(event).toMatchObject({ operation: 'models', index });
      // The read's own event, before its `done` (which says the read went well).
      const own = events.filter((other) => other.callId === event.callId);
      expect(own[0]).toMatchObject({ type: 'start', path: '/models' });
      expect(own.at(-1)).toMatchObject({ type: 'done', ok: true });
      expect(own.filter((other) => other.type === 'entry-skipped')).toEqual([event]);
    }
    expect(new Set(skipped.map((event) => event.callId)).size).toBe(2);
  });

  it('a list with no readable entry is still invalid_response', async () => {
    const gateway = await emulate();
    const { models } = gateway.emulator.scenario;
    for (const spec of Object.values(models)) spec.listing = 'no_id';
    const error = await caught(clientOn(gateway).chat(hi('community/general')));
    expect(isGatewayError(error) && error.code).toBe('invalid_response');
    expect(gateway.emulator.counters.requests.chat).toBe(0);
  });
});

describe('a model that has just come online, named by calls at once', () => {
  it('costs one re-read of GET /models, whose answer is kept (the services list with it)', async () => {
    const gateway = await emulate();
    const { emulator } = gateway;
    const client = clientOn(gateway);
    await client.chat(hi());
    await client.services();
    const spec: ModelSpec = { owned_by: 'service-community', capabilities: ['chat'], online: true };
    emulator.scenario.models['x/new'] = spec;
    await Promise.all(Array.from({ length: 5 }, () => client.chat(hi('x/new'))));
    expect(emulator.counters.requests.models).toBe(2);
    // The re-read is the cache now: later calls and the services need no request.
    await client.chat(hi('x/new'));
    await client.services();
    expect(emulator.counters.requests.models).toBe(2);
    expect(emulator.counters.requests.capabilities).toBe(1);
  });
});

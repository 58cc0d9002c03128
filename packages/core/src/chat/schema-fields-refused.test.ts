// docs/gateway-protocol.md §4.8 item 2: `response_format.json_schema` holds `name`, `schema`,
// `description` and `strict`; another key (a typo such as `stirct`) or one of these of the wrong
// type is refused before sending, naming the field, not dropped as the request is rebuilt.
import { caught, emulate } from '@infergate/emulator/testing';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { isGatewayError } from '../errors/errors';
import { createGatewayClient } from '../index';

const gateway = await emulate({ hooks: { afterEach, afterAll } });
const client = createGatewayClient({ ...gateway.connection });
const schema = { type: 'object', properties: { city: { type: 'string' } }, required: ['city'] };

function asking(fields: Record<string, unknown>, model = 'community/json-schema') {
  return {
    model,
    messages: [{ role: 'user' as const, content: 'Where is "Oslo"?' }],
    response_format: {
      type: 'json_schema' as const,
      json_schema: { name: 'place', schema, ...fields },
    },
  };
}

/** A client whose chat request bodies are kept in `sent`. */
function watchingClient() {
  const sent: Record<string, unknown>[] = [];
  const watching = createGatewayClient({
    ...gateway.connection,
    fetch: async (url, init) => {
      if (String(url).endsWith('/chat/completions')) sent.push(JSON.parse(String(init?.body)));
      return gateway.fetch(url, init);
    },
  });
  return { sent, watching };
}

describe('response_format.json_schema fields', () => {
  it.each([
    [{ stirct: true }, 'response_format.json_schema.stirct', 'did you mean `strict`?'],
    [{ descripton: 'x' }, 'response_format.json_schema.descripton', 'did you mean `description`?'],
    [{ strict: 'true' }, 'response_format.json_schema.strict', 'must be a boolean, got a string'],
    [
      { description: 5 },
      'response_format.json_schema.description',
      'must be a string, got a number',
    ],
    [{ strict: {} }, 'response_format.json_schema.strict', 'must be a boolean, got an object'],
  ])('%j is refused before sending', async (fields, field, words) => {
    for (const model of ['community/json-schema', 'community/tools']) {
      const error = await caught(() => client.chat(asking(fields, model)), isGatewayError);
      expect(error.code).toBe('invalid_request_error');
      expect(error.field).toBe(field);
      expect(error.message).toContain(words);
    }
    expect(gateway.counters.requests.chat ?? 0).toBe(0);
  });

  it('the keys the adapters send are taken, and sent', async () => {
    const { sent, watching } = watchingClient();
    const fields = { description: 'A place', strict: true };
    const result = await watching.chat(asking(fields));
    expect(result.structured?.value).toEqual({ city: 'Oslo' });
    expect(sent[0]?.response_format).toEqual({
      type: 'json_schema',
      json_schema: { name: 'place', schema, ...fields },
    });
  });

  it("a null description or strict (OpenAI's type allows it) is not given: taken, and not sent", async () => {
    const { sent, watching } = watchingClient();
    const result = await watching.chat(asking({ description: null, strict: null }));
    expect(result.structured?.value).toEqual({ city: 'Oslo' });
    expect(sent[0]?.response_format).toEqual({
      type: 'json_schema',
      json_schema: { name: 'place', schema },
    });
  });
});

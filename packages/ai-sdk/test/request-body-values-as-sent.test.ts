/**
 * The request body an `APICallError` keeps is the body that was sent, with only this provider's
 * key redacted (a key pasted as the model id): an object the body holds twice (a schema two tools
 * share) and a property named `__proto__` come back as sent, and no other live client's key is
 * looked for (a many-tenant server's 300 providers made a 200 KB body cost 100s of ms per error).
 */
import { APICallError } from '@ai-sdk/provider';
import { createEmulator, DEFAULT_KEYS } from '@infergate/emulator';
import { wavWithSpeech } from '@infergate/emulator/fixtures';
import { chatCompletion } from '@infergate/emulator/testing';
import { generateText, jsonSchema, type ModelMessage, type ToolSet, tool, transcribe } from 'ai';
import { expect, it } from 'vitest';
import { createGateway } from '../src';
import { answeringChats } from './providers';

const busy = () =>
  Response.json({ error: { code: 'model_busy', message: 'busy' } }, { status: 503 });

function provider(apiKey = DEFAULT_KEYS.full) {
  const emulator = createEmulator();
  return createGateway({
    fetch: answeringChats(busy, (request) => emulator.fetch(request)),
    apiKey,
    baseURL: 'https://gateway.test/v1',
  });
}

async function sentBody(
  call: { messages?: ModelMessage[]; tools?: ToolSet },
  model = 'community/tools',
  gateway = provider(),
) {
  const failure = await generateText({
    model: gateway(model),
    maxRetries: 0,
    ...(call.messages ? { messages: call.messages } : { prompt: 'x' }),
    tools: call.tools,
  }).then(
    () => undefined,
    (error: unknown) => error,
  );
  expect(APICallError.isInstance(failure), String(failure)).toBe(true);
  return (failure as APICallError).requestBodyValues as {
    model: string;
    messages: { content: unknown }[];
    tools: { function: { parameters: unknown } }[];
  };
}

it('keeps a schema two tools share, whole in both', async () => {
  const schema = {
    type: 'object' as const,
    properties: { q: { type: 'string' as const } },
    required: ['q'],
  };
  const tools = {
    a: tool({ inputSchema: jsonSchema(schema) }),
    b: tool({ inputSchema: jsonSchema(schema) }),
  };
  const body = await sentBody({ tools });
  expect(body.tools.map((each) => each.function.parameters)).toEqual([schema, schema]);
});

it('keeps a property named "__proto__" as an own property', async () => {
  const schema = JSON.parse(
    '{"type":"object","properties":{"__proto__":{"type":"string"},"q":{"type":"string"}}}',
  );
  const body = await sentBody({ tools: { a: tool({ inputSchema: jsonSchema(schema) }) } });
  const { properties } = body.tools[0]!.function.parameters as { properties: object };
  expect(Object.keys(properties)).toEqual(['__proto__', 'q']);
  expect(Object.getOwnPropertyDescriptor(properties, '__proto__')?.value).toEqual({
    type: 'string',
  });
});

it('keeps a body deeper than 64 levels (a schema 62 deep, under tools[0].function.parameters)', async () => {
  let deep: Record<string, unknown> = { type: 'string' };
  for (let level = 0; level < 31; level++) deep = { type: 'object', properties: { n: deep } };
  const body = await sentBody({ tools: { a: tool({ inputSchema: jsonSchema(deep) }) } });
  expect(body.tools[0]!.function.parameters).toEqual(deep);
});

/** A provider whose calls succeed: its client, once it has called, holds its key as a live one. */
async function liveTenant(apiKey: string) {
  const emulator = createEmulator();
  const catalog = await emulator.fetch(
    new Request('https://gateway.test/v1/models', {
      headers: { authorization: `Bearer ${DEFAULT_KEYS.full}` },
    }),
  );
  const models = await catalog.json();
  const answered = createGateway({
    fetch: answeringChats(
      () => Response.json(CHAT_ANSWER),
      async () => Response.json(models),
    ),
    apiKey,
    baseURL: 'https://gateway.test/v1',
  });
  await generateText({ model: answered('community/general'), prompt: 'hi' });
  return answered;
}

const CHAT_ANSWER = chatCompletion('community/general', 'ok');

it("redacts this provider's key pasted as the model id, and no other live client's", async () => {
  const key = DEFAULT_KEYS.full;
  // Other live providers (a server's tenants): their keys in this user's text are that text.
  const tenantKeys = Array.from(
    { length: 100 },
    (_, i) => `ig-tenant-${String(i).padStart(4, '0')}-key`,
  );
  const tenants = await Promise.all(tenantKeys.map(liveTenant));
  const text = `my notes: ${tenantKeys.join(' ')}`;
  const body = await sentBody({ messages: [{ role: 'user', content: text }] }, `my/${key}`);
  expect(tenants).toHaveLength(100);
  expect(body.model).toBe('my/[redacted]');
  expect(body.messages[0]!.content).toBe(text);
});

it("redacts this provider's key pasted into a transcription's language", async () => {
  const key = DEFAULT_KEYS.full;
  const emulator = createEmulator();
  const busyTranscriptions = createGateway({
    fetch: async (input, init) => {
      const request = new Request(input, init);
      return request.url.endsWith('/audio/transcriptions') ? busy() : emulator.fetch(request);
    },
    apiKey: key,
    baseURL: 'https://gateway.test/v1',
  });
  const failure = await transcribe({
    model: busyTranscriptions.transcriptionModel(),
    providerOptions: { infergate: { language: `en-${key}` } },
    audio: wavWithSpeech('hi', { seconds: 1 }),
    maxRetries: 0,
  }).then(
    () => undefined,
    (error: unknown) => error,
  );
  expect(APICallError.isInstance(failure), String(failure)).toBe(true);
  expect((failure as APICallError).requestBodyValues).toMatchObject({ language: 'en-[redacted]' });
  expect(JSON.stringify(failure)).not.toContain(key);
});

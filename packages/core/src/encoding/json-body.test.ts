import { createEmulator, DEFAULT_KEYS } from '@infergate/emulator';
import { describe, expect, it } from 'vitest';
import { createGatewayClient } from '../client/client';
import { type GatewayError, isGatewayError } from '../errors/errors';
import { jsonBody } from './json-body';

/** What a call threw (it must throw). */
async function thrown(run: () => unknown): Promise<unknown> {
  try {
    await run();
  } catch (error) {
    return error;
  }
  throw new Error('expected a refusal');
}

function refusal(error: unknown): Pick<GatewayError, 'code' | 'field' | 'isRetryable'> {
  if (!isGatewayError(error)) throw new Error(`untyped: ${String(error)}`);
  return { code: error.code, field: error.field, isRetryable: error.isRetryable };
}

describe('jsonBody', () => {
  it('is JSON.stringify for what JSON can carry', () => {
    const value = { a: [1, 'x', null, { b: true }], d: new Date(0) };
    expect(jsonBody(value)).toBe(JSON.stringify(value));
  });

  it('names the path of a circular reference and where it points back to', () => {
    const extra: Record<string, unknown> = { ok: 1 };
    extra.self = extra;
    const error = thrown(() => jsonBody({ model: 'm', metadata: { tags: ['a'], extra } }));
    return error.then((e) => {
      expect(refusal(e)).toEqual({
        code: 'invalid_request_error',
        field: 'metadata.extra.self',
        isRetryable: false,
      });
      expect((e as Error).message).toBe(
        'metadata.extra.self: is a circular reference (back to metadata.extra), which JSON cannot carry; nothing was sent',
      );
    });
  });

  it('names the path of a BigInt inside an array', async () => {
    const error = await thrown(() =>
      jsonBody({
        messages: [
          { role: 'user', content: 'a' },
          { role: 'user', content: 5n },
        ],
      }),
    );
    expect(refusal(error).field).toBe('messages[1].content');
    expect((error as Error).message).toContain('is a BigInt (5n)');
  });

  it('a cycle back to the root, a throwing toJSON and a throwing getter are named too', async () => {
    const root: Record<string, unknown> = { a: 1 };
    root.again = root;
    expect(refusal(await thrown(() => jsonBody(root))).field).toBe('again');
    const bad = {
      when: {
        toJSON() {
          throw new Error('no');
        },
      },
    };
    expect(refusal(await thrown(() => jsonBody(bad))).field).toBe('when');
    const getter = {
      get secret(): string {
        throw new Error('nope');
      },
    };
    expect(refusal(await thrown(() => jsonBody({ x: getter }))).field).toBe('x.secret');
  });

  it('a value shared twice without a cycle is fine', () => {
    const shared = { a: 1 };
    expect(jsonBody({ x: shared, y: [shared, shared] })).toBe(
      '{"x":{"a":1},"y":[{"a":1},{"a":1}]}',
    );
  });
});

describe('unserialisable input through the client (refused before anything is sent)', () => {
  // The emulator answers the catalog look-ups; no POST may leave the client.
  const emulator = createEmulator();
  let sent = 0;
  const client = createGatewayClient({
    baseURL: 'https://unserialisable.test/v1',
    apiKey: DEFAULT_KEYS.full,
    maxRetries: 0,
    fetch: async (input, init) => {
      const request = new Request(input, init);
      if (request.method === 'POST') sent++;
      return emulator.fetch(request);
    },
  });
  const circularMessage = () => {
    const message: Record<string, unknown> = { role: 'user', content: 'hi' };
    message.parent = message;
    return message;
  };
  const cases: [string, () => unknown, string][] = [
    [
      'chat: a circular message',
      () => client.chat({ model: 'm', messages: [circularMessage() as never] }),
      'messages[0].parent',
    ],
    [
      'chat: a BigInt in a message',
      () =>
        client.chat({
          model: 'm',
          messages: [{ role: 'user', content: 'hi', name: 7n as never }],
        }),
      'messages[0].name',
    ],
    [
      'chatStream: a cyclic extra field',
      () => {
        const metadata: Record<string, unknown> = {};
        metadata.loop = [metadata];
        return client.chatStream({
          model: 'm',
          messages: [{ role: 'user', content: 'hi' }],
          metadata,
        } as never);
      },
      'metadata.loop[0]',
    ],
    [
      'embed: a cyclic extra field',
      () => {
        const extra: Record<string, unknown> = {};
        extra.me = extra;
        return client.embed({ input: 'a', model: 'multilingual-e5-base', extra });
      },
      'extra.me',
    ],
    [
      'translate: a BigInt extra field',
      () => client.translate({ input: 'a', target_language: 'uk', priority: 1n } as never),
      'priority',
    ],
  ];
  it.each(cases.map(([name, run, field]) => ({ name, run, field })))(
    '$name: invalid_request_error naming $field, nothing sent',
    async ({ run, field }) => {
      const error = await thrown(run);
      expect(refusal(error)).toEqual({ code: 'invalid_request_error', field, isRetryable: false });
      expect(sent).toBe(0);
    },
  );
});

describe('a bad value named in a refusal (quoted briefly, never whole)', () => {
  const client = createGatewayClient({
    baseURL: 'https://quote.test/v1',
    apiKey: 'k',
    maxRetries: 0,
    fetch: async () => new Response('{}', { status: 500 }),
  });
  const loop: Record<string, unknown> = {};
  loop.loop = loop;
  const cases: [string, () => unknown, string][] = [
    [
      'translate: a BigInt target_language',
      () => client.translate({ input: 'a', target_language: 5n } as never),
      'target_language',
    ],
    [
      'translate: a cyclic target_language',
      () => client.translate({ input: 'a', target_language: loop } as never),
      'target_language',
    ],
    [
      'embed: a BigInt input_type',
      () => client.embed({ input: 'a', model: 'e', input_type: 5n } as never),
      'input_type',
    ],
  ];
  it.each(cases.map(([name, run, field]) => ({ name, run, field })))(
    '$name: invalid_request_error naming $field (describing the value does not throw)',
    async ({ run, field }) => {
      expect(refusal(await thrown(run))).toMatchObject({ code: 'invalid_request_error', field });
    },
  );
});

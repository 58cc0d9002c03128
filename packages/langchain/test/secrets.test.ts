import { inspect } from 'node:util';
import { emulate } from '@infergate/emulator/testing';
import { describe, expect, it } from 'vitest';
import {
  createGatewayTools,
  GatewayAudioTranscriptLoader,
  GatewayChatModel,
  GatewayEmbeddings,
  GatewayOcrLoader,
  GatewayTranslator,
} from '../src/index';

const KEY = 'ig-emu-full-0000';

describe('the API key never shows', () => {
  it('in JSON, toJSON or inspect of any class, bound runnables included', async () => {
    const { connection } = await emulate();
    expect(connection.apiKey).toBe(KEY);
    const model = new GatewayChatModel('community/general', connection);
    const objects: unknown[] = [
      model,
      model.bindTools([
        { type: 'function', function: { name: 'f', parameters: { type: 'object' } } },
      ]),
      model.withStructuredOutput({ title: 'x', type: 'object', properties: {} }),
      new GatewayEmbeddings(connection),
      new GatewayTranslator({ ...connection, targetLanguage: 'en' }),
      new GatewayOcrLoader({ ...connection, image: new Uint8Array([1]) }),
      new GatewayAudioTranscriptLoader({ ...connection, audio: new Uint8Array([1]) }),
      ...(await createGatewayTools(connection)),
    ];
    for (const object of objects) {
      expect(JSON.stringify(object) ?? '').not.toContain(KEY);
      expect(inspect(object, { depth: 8 })).not.toContain(KEY);
    }
    expect(JSON.stringify(model.toJSON())).not.toContain(KEY);
    // No getter either (the README says so): the key is read by nobody but core's client.
    expect((model as unknown as { apiKey?: string }).apiKey).toBeUndefined();
  });
});

describe('a header name holding the API key', () => {
  it('(a pasted `Authorization: Bearer` line) is refused at construction without quoting the key', async () => {
    const { connection } = await emulate();
    const headers = { [`Authorization: Bearer ${connection.apiKey}`]: '' };
    let refused: Error | undefined;
    try {
      new GatewayChatModel('community/general', { ...connection, headers });
    } catch (error) {
      refused = error as Error;
    }
    expect(refused?.message).toBe(
      'Invalid header in `headers`: `Authorization: …` (the rest not shown: it may hold a credential) is not a valid header name',
    );
  });
});

describe("a custom fetch's failure holding the request's headers in a Headers", () => {
  it('shows the key neither in the error invoke throws nor in handleLLMError', async () => {
    const { connection } = await emulate();
    const fetch: typeof globalThis.fetch = async (input, init) => {
      if (String(input).endsWith('/chat/completions')) {
        throw Object.assign(new TypeError('fetch failed'), {
          options: { ...init, headers: new Headers(init?.headers) },
        });
      }
      return connection.fetch(input, init);
    };
    let reported: unknown;
    const model = new GatewayChatModel('community/general', {
      ...connection,
      fetch,
      maxRetries: 0,
      callbacks: [
        {
          handleLLMError: (error: unknown) => {
            reported = error;
          },
        },
      ],
    });
    const thrown = await model.invoke('x').catch((error: unknown) => error);
    expect(thrown).toBeInstanceOf(Error);
    expect(reported).toBeDefined();
    for (const error of [thrown, reported]) {
      expect(inspect(error, { depth: 20, showHidden: true })).not.toContain(KEY);
    }
  });
});

describe('an unknown field named with the API key (a pasted key)', () => {
  it('is refused by GatewayEmbeddings without quoting the key', async () => {
    const { connection } = await emulate();
    let refused: Error | undefined;
    try {
      new GatewayEmbeddings({ ...connection, [connection.apiKey]: true } as never);
    } catch (error) {
      refused = error as Error;
    }
    expect(refused?.message).toMatch(/^unknown option `\[redacted\]` in new GatewayEmbeddings/);
    expect(inspect(refused, { depth: 10 }) + JSON.stringify(refused)).not.toContain(KEY);
  });
});

/**
 * A call's option groups are checked by value on every call, steered or not, by the rules a
 * steered call and a model's settings use: a chat call that asks for no schema refuses a bad
 * `structuredOutput` or `hedge: null` before anything is sent rather than ignoring it (the catalog
 * look-ups refuse these keys as a chat call's: unknown-options.emulator.test.ts). `checkModel`'s
 * own options are checked by their kind (`anyOf: 'false'` would turn all-of into any-of).
 */
import { emulate } from '@infergate/emulator/testing';
import { describe, expect, it } from 'vitest';
import type { GatewayClient } from '../src/client/client';
import type { ChatCallOptions } from '../src/index';
import { caught, clientOn, hi, totalRequests } from './helpers';

/** Bad values, each with the field refused and words of its rule. */
const BAD = [
  [
    { structuredOutput: 'tools' },
    'structuredOutput',
    'must be { methods?, standard?, lastAnswer? }, got a string',
  ],
  [{ structuredOutput: null }, 'structuredOutput', 'got null'],
  [
    { structuredOutput: { methods: ['json_scheme'] } },
    'structuredOutput.methods[0]',
    'must be one of json_schema, tools, json_object, got "json_scheme"',
  ],
  [
    { structuredOutput: { methods: [] } },
    'structuredOutput.methods',
    'must list at least one method, got an empty array',
  ],
  [
    { structuredOutput: { lastAnswer: 'return' } },
    'structuredOutput.lastAnswer',
    "must be 'checked' or 'returned'",
  ],
  [
    { structuredOutput: { standard: {} } },
    'structuredOutput.standard',
    'must be a Standard Schema',
  ],
  [
    { structuredOutput: { method: ['tools'] } },
    'structuredOutput.method',
    'did you mean `methods`?',
  ],
  [{ hedge: null }, 'hedge', 'must be { afterMs, maxExtra? } or false, got null'],
  [{ hedge: { aftrMs: 1 } }, 'hedge.aftrMs', 'did you mean `afterMs`?'],
  [{ fallbackModels: 'community/tools' }, 'fallbackModels', 'must be an array of model ids'],
  [{ chunkTimeoutMs: null }, 'chunkTimeoutMs', 'must be a finite number of ms > 0, got null'],
] as const;

const ENTRIES: Record<
  string,
  (client: GatewayClient, options: ChatCallOptions) => Promise<unknown>
> = {
  chat: (client, options) => client.chat(hi(), options),
  chatStream: (client, options) => client.chatStream(hi(), options),
};

describe("a call's option values, checked whether or not the call is steered", () => {
  it.each(Object.keys(ENTRIES).flatMap((entry) => BAD.map((bad) => [entry, ...bad] as const)))(
    '%s %o',
    async (entry, options, field, words) => {
      const gateway = await emulate();
      const client = clientOn(gateway);
      const error = await caught(() => ENTRIES[entry]!(client, options as ChatCallOptions));
      expect(error).toMatchObject({ code: 'invalid_request_error', field });
      expect(error.message).toContain(words);
      expect(totalRequests(gateway.emulator)).toBe(0);
    },
  );

  it('passes the good values of a call that is not steered, and `hedge: false`', async () => {
    const gateway = await emulate();
    const client = clientOn(gateway);
    const options = { structuredOutput: { methods: ['tools'] }, hedge: false } as const;
    const { answer } = await client.chat(hi(), options);
    expect(answer.text.length).toBeGreaterThan(0);
  });
});

describe("checkModel's own options, by their kind", () => {
  it.each([
    [{ anyOf: 'false' }, 'anyOf', 'must be a boolean, got a string'],
    [{ anyOf: 1 }, 'anyOf', 'must be a boolean, got 1'],
    [{ purpose: 42 }, 'purpose', 'must be a string, got a number'],
  ])('%o is refused, naming the field and its rule', async (options, field, words) => {
    const gateway = await emulate();
    const client = clientOn(gateway);
    const error = await caught(() =>
      client.checkModel('community/plain', ['chat', 'tools'], options as never),
    );
    expect(error).toMatchObject({ code: 'invalid_request_error', field });
    expect(error.message).toBe(`${field} (call option) ${words}`);
  });

  it('keeps `anyOf: true` meaning any of the needs', async () => {
    const gateway = await emulate();
    const client = clientOn(gateway);
    await expect(
      client.checkModel('community/plain', ['chat', 'tools'], { anyOf: true, purpose: 'x' }),
    ).resolves.toEqual(['chat']);
  });
});

// docs/gateway-protocol.md §4.1 (fields not listed reach the model server unchanged): a call
// option given in the request (the first argument) instead of the call options (the second) —
// `client.chat({ model, messages, signal })` — used to be sent to the gateway as an unknown field
// (`"signal":{}`) and do nothing: no abort, no deadline, no hedge. Refused before anything is sent,
// naming the field and the second argument; the request's real and vendor fields are still sent.
import { caught } from '@infergate/emulator/testing';
import { describe, expect, it } from 'vitest';
import { CALL_KEYS } from '../src/call/call-options';
import { type GatewayClient, isGatewayError } from '../src/index';
import { hi, recordingBodies, totalRequests } from './helpers';

/** A value of each option's own kind, so that only its place is wrong. */
const VALUES: Record<string, unknown> = {
  signal: new AbortController().signal,
  headers: { 'x-org': 'a' },
  timeoutMs: 5,
  maxRetries: 0,
  onResponse: () => {},
  fallbackModels: ['community/other'],
  firstChunkTimeoutMs: 5,
  chunkTimeoutMs: 5,
  hedge: { afterMs: 5 },
  structuredOutput: { methods: ['tools'] },
  capabilities: ['chat'],
  assemble: true,
  streamUsage: true,
  rawChunks: true,
  onHeaders: () => {},
};

/** What `run` was refused with: the refusal names the field and the second argument. */
async function expectRefused(run: () => Promise<unknown>, key: string, call: string) {
  const error = await caught(run, isGatewayError);
  expect(error).toMatchObject({ code: 'invalid_request_error', field: key });
  expect(error.message).toContain(`\`${key}\` in the ${call} request is a call option`);
  if (key === 'onResponse' && call.startsWith('chat')) {
    // Not sent where it would do nothing: a chat call takes it but never tells it (rv-28e F1).
    expect(error.message).toContain(`${call} does not call it: read the result's \`headers\``);
    expect(error.message).not.toContain('second argument');
    return;
  }
  expect(error.message).toContain('second argument');
  expect(error.message).toContain(`client.${call}(request, { ${key} })`);
}

type Call = (client: GatewayClient, field: Record<string, unknown>) => Promise<unknown>;

const CALLS: [string, Call][] = [
  ['chat', (client, field) => client.chat({ ...hi(), ...field })],
  [
    'chatStream',
    async (client, field) => {
      for await (const _ of await client.chatStream({ ...hi(), ...field }));
    },
  ],
  ['embed', (client, field) => client.embed({ input: 'hi', ...field })],
  [
    'translate',
    (client, field) => client.translate({ input: 'hi', target_language: 'de', ...field }),
  ],
  ['ocr', (client, field) => client.ocr({ image: 'aGk=', ...field })],
  ['transcribe', (client, field) => client.transcribe({ audio: 'aGk=', ...field })],
];

describe('a call option given in the request is refused, nothing sent', () => {
  it("the lead's case: chat({ model, messages, signal }) is refused, not sent as `signal: {}`", async () => {
    const { gateway, client, bodies } = await recordingBodies();
    const ac = new AbortController();
    await expectRefused(() => client.chat({ ...hi(), signal: ac.signal }), 'signal', 'chat');
    expect(bodies).toEqual([]);
    expect(totalRequests(gateway.emulator)).toBe(0);
    await gateway.close();
  });

  for (const [call, run] of CALLS) {
    const keys = CALL_KEYS[call as keyof typeof CALL_KEYS];
    it.each(keys)(`${call}: %s`, async (key) => {
      const { gateway, client, bodies } = await recordingBodies();
      await expectRefused(() => run(client, { [key]: VALUES[key] }), key, call);
      expect(bodies).toEqual([]);
      expect(totalRequests(gateway.emulator)).toBe(0);
      await gateway.close();
    });
  }
});

describe("the request's own fields and vendor fields are still sent", () => {
  it('chat: LiteLLM `timeout`, `fallbacks`, `api_key`, `num_retries` and an unset option reach the gateway', async () => {
    const { gateway, client, bodies } = await recordingBodies();
    const vendor = { timeout: 30, fallbacks: ['community/other'], api_key: 'up', num_retries: 1 };
    await client.chat({ ...hi(), ...vendor, temperature: 0.5, signal: undefined });
    const sent = bodies.at(-1);
    expect(sent).toMatchObject({ ...vendor, temperature: 0.5 });
    expect(sent).not.toHaveProperty('signal');
    await gateway.close();
  });

  it('embed: `dimensions` and `input_type` are not taken for call options', async () => {
    const { gateway, client } = await recordingBodies();
    const outcome = await client.embed({ input: 'hi', dimensions: 8, input_type: 'query' }).then(
      () => 'answered',
      (error: Error) => error.message,
    );
    expect(outcome).not.toContain('is a call option');
    await gateway.close();
  });
});

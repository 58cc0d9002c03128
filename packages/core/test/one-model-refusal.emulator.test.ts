import { caught, emulate } from '@infergate/emulator/testing';
import { describe, expect, it } from 'vitest';
import type { ChatCallOptions } from '../src/chat/chat-calls';
import type { GatewayClientOptions } from '../src/client/options';
import type { GatewayError } from '../src/errors/errors';
import { isGatewayError } from '../src/index';
import { askingPlace, clientOn, hi } from './helpers';

// A call with one model (no fallback list) is refused as a call that does not steer: a stall
// timeout or a hedge changes how it is sent, not how it is refused (docs/gateway-protocol.md §4.2,
// §4.7: `no_model_can_serve` is a list's refusal).

const steering: { name: string; call?: ChatCallOptions; client?: GatewayClientOptions }[] = [
  { name: 'chunkTimeoutMs (call)', call: { chunkTimeoutMs: 5000 } },
  { name: 'firstChunkTimeoutMs (call)', call: { firstChunkTimeoutMs: 5000 } },
  { name: 'a hedge (call)', call: { hedge: { afterMs: 60_000 } } },
  { name: 'chunkTimeoutMs (client)', client: { chunkTimeoutMs: 5000 } },
  { name: 'fallbackModels: [] (none)', call: { fallbackModels: [] } },
];

/** What a refusal says to act on: the same for a call steered or not. */
const told = ({ code, field, model, missing, alternatives }: GatewayError) => ({
  code,
  field,
  model,
  missing,
  alternatives,
});

describe.each(['chat', 'chatStream'] as const)('a one-model %s', (entry) => {
  it.each(steering)('with $name refuses as a plain call does', async (options) => {
    const gateway = await emulate();
    const plain = clientOn(gateway);
    const steered = clientOn(gateway, options.client);
    const refusal = async (
      client: typeof plain,
      request: ReturnType<typeof hi> & { response_format?: { type: 'json_object' } },
      callOptions?: ChatCallOptions,
    ) =>
      told(
        await caught(
          () =>
            entry === 'chat'
              ? client.chat(request, callOptions)
              : client.chatStream(request, callOptions),
          isGatewayError,
        ),
      );
    const unknown = hi('community/generl');
    const json = { ...hi('community/plain'), response_format: { type: 'json_object' as const } };

    const notFound = await refusal(steered, unknown, options.call);
    expect(notFound).toEqual(await refusal(plain, unknown));
    expect(notFound.code).toBe('model_not_found');
    expect(notFound.alternatives).toContain('community/general');

    const lacking = await refusal(steered, json, options.call);
    expect(lacking).toEqual(await refusal(plain, json));
    expect(lacking.code).toBe('unsupported_model_capability');
    // (A stream needs `streaming` too, which community/plain lacks as well.)
    expect(lacking.missing).toEqual(
      entry === 'chat' ? ['json_object'] : ['streaming', 'json_object'],
    );
    expect(lacking.alternatives?.length).toBeGreaterThan(0);
    expect(gateway.emulator.counters.requests.chat).toBe(0);
  });
});

// The caller's `capabilities` decide a one-model call's gate as they do a plain call's (LangChain
// and the AI SDK always pass them): steered or not, the call is sent, or refused, alike.
const steeredByCall = steering.filter((options) => options.call && !options.call.fallbackModels);

describe.each(['chat', 'chatStream'] as const)('a one-model %s with capabilities', (entry) => {
  /** How the call ended, and how many chat requests it sent. */
  async function outcome(
    gateway: Awaited<ReturnType<typeof emulate>>,
    request: ReturnType<typeof hi> & { tools?: unknown[] },
    callOptions: ChatCallOptions,
  ) {
    const client = clientOn(gateway);
    const before = gateway.emulator.counters.requests.chat;
    const call = async () => {
      if (entry === 'chat') return client.chat(request as ReturnType<typeof hi>, callOptions);
      return (await client.chatStream(request as ReturnType<typeof hi>, callOptions)).result();
    };
    const ended = await call().then(
      () => ({ code: 'answered', missing: undefined }),
      (error: GatewayError) => ({ code: error.code as string, missing: error.missing }),
    );
    return { ...ended, sent: gateway.emulator.counters.requests.chat - before };
  }
  const tools = [{ type: 'function', function: { name: 'w', parameters: { type: 'object' } } }];

  it.each(steeredByCall)(
    'with $name is sent when they have what the catalog lacks',
    async ({ call }) => {
      const gateway = await emulate();
      // community/plain is listed without tools (nor streaming): the caller says it has them.
      const request = { ...hi('community/plain'), tools };
      const capabilities = ['chat', 'streaming', 'tools'];
      const plain = await outcome(gateway, request, { capabilities });
      expect(plain.sent).toBe(1);
      expect(await outcome(gateway, request, { ...call, capabilities })).toEqual(plain);
    },
  );

  it.each(steeredByCall)(
    'with $name is refused when they lack what the catalog has',
    async ({ call }) => {
      const gateway = await emulate();
      const request = { ...hi('community/general'), tools };
      const capabilities = ['chat', 'streaming'];
      const plain = await outcome(gateway, request, { capabilities });
      expect(plain).toEqual({ code: 'unsupported_model_capability', missing: ['tools'], sent: 0 });
      expect(await outcome(gateway, request, { ...call, capabilities })).toEqual(plain);
    },
  );
});

describe('a call over a fallback list', () => {
  it('gates its first model by the catalog, not by the capabilities stated', async () => {
    const gateway = await emulate();
    const tools = [{ type: 'function', function: { name: 'w', parameters: { type: 'object' } } }];
    const request = { ...hi('community/plain'), tools } as ReturnType<typeof hi>;
    const answer = await clientOn(gateway).chat(request, {
      capabilities: ['chat', 'tools'],
      fallbackModels: ['community/general'],
    });
    expect(answer.servedModel).toBe('community/general');
    expect(answer.route.hops[0]).toMatchObject({ model: 'community/plain', outcome: 'skipped' });
  });
});

// A call asking for a schema steers with one model too, yet an id the catalog does not list is
// refused as any call naming it is: `model_not_found` with close matches, not `no_model_can_serve`
// (that is for a listed model that cannot serve the schema) (rv-steer F8).
describe('a one-model call asking for a schema', () => {
  it('naming an unknown id: model_not_found with close matches; a listed model lacking JSON: no_model_can_serve', async () => {
    const gateway = await emulate();
    const client = clientOn(gateway);
    const unknown = await caught(
      () => client.chat(askingPlace('community/generl')),
      isGatewayError,
    );
    expect(unknown.code).toBe('model_not_found');
    expect(unknown.alternatives).toContain('community/general');
    const lacking = await caught(() => client.chat(askingPlace('community/plain')), isGatewayError);
    expect(lacking.code).toBe('no_model_can_serve');
    expect(lacking.route?.hops).toEqual([
      { model: 'community/plain', outcome: 'skipped', reason: 'missing_capability' },
    ]);
    expect(gateway.emulator.counters.requests.chat).toBe(0);
  });
});

import { caught, emulate } from '@infergate/emulator/testing';
import { describe, expect, it } from 'vitest';
import type { ChatCallOptions } from '../src/chat/chat-calls';
import type { GatewayClientOptions } from '../src/client/options';
import type { GatewayError } from '../src/errors/errors';
import { isGatewayError } from '../src/index';
import { clientOn, hi } from './helpers';

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

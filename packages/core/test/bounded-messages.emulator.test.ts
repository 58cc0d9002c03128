import { createEmulator, type ScenarioInput } from '@infergate/emulator';
import { caught, emulate } from '@infergate/emulator/testing';
import { describe, expect, it } from 'vitest';
import type { GatewayClientOptions } from '../src/client/options';
import { createGatewayClient, isGatewayError } from '../src/index';
import { clientOn, DEFAULT_KEYS, hi } from './helpers';

// Every message bounded, every string safe (issue 53, item 5): the message of a steered call whose
// every model failed groups each model's attempts, names the skipped models, and stays within one
// error's bound; control characters in model ids and the gateway's words are escaped.

// biome-ignore lint/suspicious/noControlCharactersInRegex: finding them is the point
const CONTROL = /[\u0000-\u001f\u007f-\u009f\u2028\u2029]/;

let origins = 0;

/**
 * A client on an emulator whose every chat error's gateway message is replaced by `message` (a
 * gateway that says more than the emulator does): the emulator still decides what fails.
 */
function wordyGateway(message: string, scenario?: ScenarioInput, options?: GatewayClientOptions) {
  const emulator = createEmulator(scenario);
  const fetch: typeof globalThis.fetch = async (input, init) => {
    const response = await emulator.fetch(input, init);
    const url = input instanceof Request ? input.url : String(input);
    if (response.ok || !url.endsWith('/chat/completions')) return response;
    const body = (await response.json()) as { error: { code: string } };
    return new Response(JSON.stringify({ error: { code: body.error.code, message } }), {
      status: response.status,
      headers: response.headers,
    });
  };
  const client = createGatewayClient({
    baseURL: `https://wordy-${++origins}.test/v1`,
    apiKey: DEFAULT_KEYS.full,
    fetch,
    retryBaseDelayMs: 0,
    maxRetries: 0,
    ...options,
  });
  return { emulator, client };
}

describe('the all-failed message', () => {
  it("groups each model's attempts and names the skipped models; route keeps every hop", async () => {
    const gateway = await emulate();
    const client = clientOn(gateway, { retryBaseDelayMs: 0 });
    const { emulator } = gateway;
    emulator.injectFault({ fault: 'service_unavailable', model: 'community/general' });
    emulator.injectFault({ fault: 'bad_gateway', model: 'community/plain' });
    emulator.injectFault({ fault: 'service_unavailable', model: 'community/streamer' });
    const error = await caught(
      () =>
        client.chat(hi(), {
          fallbackModels: [
            'community/nope',
            'community/plain',
            'community/streamer',
            'community/gone',
          ],
        }),
      isGatewayError,
    );
    // The default retries: three rounds of three models.
    expect(error.message).toMatch(/^Every model tried failed \(9 attempts\): /);
    expect(error.message).toContain('"community/general": 3 × provider_unavailable (');
    expect(error.message).toContain('"community/plain": 3 × all_providers_failed (');
    expect(error.message).toContain('"community/streamer": 3 × provider_unavailable (');
    expect(error.message).toContain('"community/nope": skipped (not_in_catalog)');
    expect(error.message).toContain('"community/gone": skipped (not_in_catalog)');
    expect(error.message.match(/"community\/general"/g)).toHaveLength(1);
    const hops = error.route!.hops;
    expect(hops.filter((hop) => hop.outcome === 'skipped')).toHaveLength(2);
    expect(hops.filter((hop) => hop.model === 'community/general')).toHaveLength(3);
  });

  it("stays within one error's bound: 40 models each failing with a 60 KB message", async () => {
    const models = Array.from({ length: 40 }, (_, i) => `community/m${String(i).padStart(2, '0')}`);
    const spec = { owned_by: 'service-community' as const, capabilities: [], online: true };
    const { emulator, client } = wordyGateway('x'.repeat(60_000), {
      models: Object.fromEntries(models.map((id) => [id, spec])),
    });
    emulator.injectFault({ fault: 'service_unavailable', endpoint: 'chat' });
    const error = await caught(
      () => client.chat(hi(models[0]), { fallbackModels: models.slice(1) }),
      isGatewayError,
    );
    expect(error.route?.hops, error.message).toHaveLength(40);
    expect(Buffer.byteLength(error.message)).toBeLessThanOrEqual(64 * 1024);
    expect(Buffer.byteLength(JSON.stringify(error))).toBeLessThanOrEqual(2 * 64 * 1024);
    expect(error.message).toMatch(/^Every model tried failed \(40 attempts\): "community\/m00": /);
    expect(error.message).toContain('"community/m39": provider_unavailable (xxx');
  });
});

describe('control characters in messages', () => {
  it('escapes them in a model id the message quotes', async () => {
    const gateway = await emulate();
    const client = clientOn(gateway);
    const forged = 'community/x\n2026-12-02 INFO all good \u001b[32mok\u001b[0m';
    const refused = await caught(() => client.chat(hi(forged)), isGatewayError);
    expect(refused.message).not.toMatch(CONTROL);
    expect(refused.message).toContain('community/x\\n2026-12-02 INFO all good \\u001b[32mok');
  });

  it("escapes them in the gateway's words, also in the all-failed message", async () => {
    const { emulator, client } = wordyGateway('busy\r\n[INFO] forged line\u001b[2K');
    emulator.injectFault({ fault: 'service_unavailable', endpoint: 'chat' });
    const single = await caught(() => client.chat(hi()), isGatewayError);
    expect(single.message).not.toMatch(CONTROL);
    expect(single.message).toContain('busy\\r\\n[INFO] forged line\\u001b[2K');
    const all = await caught(
      () => client.chat(hi(), { fallbackModels: ['community/plain'] }),
      isGatewayError,
    );
    expect(all.message).toMatch(/^Every model tried failed/);
    expect(all.message).not.toMatch(CONTROL);
  });
});

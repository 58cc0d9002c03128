import { createGateway } from '@infergate/ai-sdk';
import { createGatewayClient } from '@infergate/core';
import { GatewayChatModel } from '@infergate/langchain';
import { generateText } from 'ai';
import { afterEach, describe, expect, it } from 'vitest';

// Reading the environment never throws, on every surface: here `process.env` refuses the
// INFERGATE_* variables as Deno does without --allow-env (NotCapable). Creating works; the first
// call fails with the surface's configuration error, naming the setting and the flag to add.
const realEnv = process.env;

afterEach(() => {
  process.env = realEnv;
});

function refuseInfergateVariables(): void {
  process.env = new Proxy(realEnv, {
    get(target, name) {
      if (typeof name === 'string' && name.startsWith('INFERGATE_')) {
        const error = new Error(`Requires env access to "${name}", run again with --allow-env`);
        error.name = 'NotCapable';
        throw error;
      }
      return Reflect.get(target, name);
    },
  });
}

const REFUSED =
  /refused by the runtime \(NotCapable\).*--allow-env=INFERGATE_BASE_URL,INFERGATE_API_KEY/;

describe('settings when the environment refuses to be read', () => {
  it.each([
    [
      'core: creating works; the call fails with configuration_error',
      () => createGatewayClient().models(),
    ],
    [
      'LangChain: new GatewayChatModel works; invoke fails with configuration_error',
      () => new GatewayChatModel({ model: 'community/general' }).invoke('x'),
    ],
  ])('%s', async (_name, call) => {
    refuseInfergateVariables();
    await expect(call()).rejects.toMatchObject({
      code: 'configuration_error',
      message: expect.stringMatching(REFUSED),
    });
  });

  it('AI SDK: createGateway() works; generateText fails with LoadSettingError', async () => {
    refuseInfergateVariables();
    const infergate = createGateway();
    const error = await generateText({ model: infergate('community/general'), prompt: 'x' }).catch(
      (e: unknown) => e,
    );
    expect((error as Error).name).toBe('AI_LoadSettingError');
    expect((error as Error).message).toMatch(REFUSED);
  });

  it('explicit settings (the Workers form) never read it', async () => {
    refuseInfergateVariables();
    const seen: string[] = [];
    const fetch = async (input: RequestInfo | URL, init?: RequestInit) => {
      seen.push(
        `${new URL(String(input)).pathname} ${new Headers(init?.headers).get('authorization')}`,
      );
      return Response.json({ object: 'list', data: [] });
    };
    await createGatewayClient({ baseURL: 'https://gw.example', apiKey: 'env-key', fetch }).models();
    await createGateway({ baseURL: 'https://gw.example', apiKey: 'env-key', fetch }).models();
    expect(seen).toEqual(['/v1/models Bearer env-key', '/v1/models Bearer env-key']);
  });
});

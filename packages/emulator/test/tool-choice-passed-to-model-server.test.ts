/**
 * `tool_choice` is "passed to the model server" (spec §2.5): the gateway neither needs `tools`
 * with it nor checks it. A model server that cannot follow it refuses it, but only once the
 * gateway has found, allowed and checked the model: an unknown, offline or incapable model is
 * refused by the gateway first, with its own code.
 */
import { describe, expect, it } from 'vitest';
import { createEmulator, DEFAULT_KEYS } from '../src/index';
import { chat, errorBodyOf, userChat } from './helpers';

const missingFunction = { type: 'function', function: { name: 'nope' } };
const weatherTool = {
  type: 'function',
  function: { name: 'get_weather', parameters: { type: 'object', properties: {} } },
};

describe('tool_choice without tools', () => {
  it.each(['none', 'auto', 'required'])(
    '%s is passed on: a model without the tools capability answers',
    async (choice) => {
      const response = await chat(
        createEmulator(),
        userChat('community/plain', 'hi', { tool_choice: choice }),
      );
      expect(response.status).toBe(200);
      const body = (await response.json()) as { choices: { message: { tool_calls?: unknown } }[] };
      expect(body.choices[0]!.message.tool_calls).toBeUndefined();
    },
  );
});

describe("the model server's refusal of a tool_choice comes after the gateway's checks", () => {
  it('an unknown model is model_not_found', async () => {
    const body = userChat('community/nope', 'hi', { tool_choice: missingFunction });
    const error = await errorBodyOf(await chat(createEmulator(), body));
    expect(error).toMatchObject({ status: 404, code: 'model_not_found' });
  });

  it('an offline model without fallback is provider_unavailable', async () => {
    const body = userChat('my/laptop-model', 'hi', { tool_choice: missingFunction });
    const response = await chat(createEmulator(), body, { key: DEFAULT_KEYS.nofallback });
    expect(await errorBodyOf(response)).toMatchObject({
      status: 503,
      code: 'provider_unavailable',
    });
  });

  it('tools to a model without the capability is unsupported_model_capability', async () => {
    const body = userChat('community/plain', 'hi', {
      tools: [weatherTool],
      tool_choice: missingFunction,
    });
    const error = await errorBodyOf(await chat(createEmulator(), body));
    expect(error).toMatchObject({ status: 400, code: 'unsupported_model_capability' });
  });

  it('a function not among tools, to a model that takes tools, is still refused, naming it', async () => {
    const body = userChat('community/tools', 'hi', { tool_choice: missingFunction });
    const response = await chat(createEmulator(), body);
    expect(response.headers.get('x-service-model')).toBe('community/tools');
    expect(await errorBodyOf(response)).toMatchObject({
      status: 400,
      code: 'invalid_request_error',
      param: 'tool_choice',
    });
  });
});

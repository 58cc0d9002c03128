// A thinking model's 400 for a tool-call turn without reasoning names `sendReasoning: true` only
// when the model was made with `sendReasoning: false`: by default every tool-call turn's reasoning
// already goes back, so a history that never had it (another model's turn) is not helped by the
// setting, and the hint would mislead (rv-28f F1).
import { APICallError } from '@ai-sdk/provider';
import { emulate } from '@infergate/emulator/testing';
import { generateText, type ModelMessage } from 'ai';
import { afterAll, afterEach, expect, it } from 'vitest';
import { BASE_URL, providersOn } from './providers';

const emulated = await emulate({
  as: 'msw',
  scenario: {
    models: {
      'dialect/thinking': {
        capabilities: ['chat', 'streaming', 'tools'],
        dialect: 'deepseek-thinking',
      },
    },
  },
  baseURL: BASE_URL,
  hooks: { afterEach, afterAll },
});
const { gateway } = providersOn(emulated);

/** A history whose tool-call turn has no reasoning: another model wrote it. */
const messages: ModelMessage[] = [
  { role: 'user', content: 'weather in Kyiv?' },
  {
    role: 'assistant',
    content: [
      { type: 'tool-call', toolCallId: 'c1', toolName: 'weather', input: { city: 'Kyiv' } },
    ],
  },
  {
    role: 'tool',
    content: [
      {
        type: 'tool-result',
        toolCallId: 'c1',
        toolName: 'weather',
        output: { type: 'json', value: { t: 3 } },
      },
    ],
  },
];

it.each([
  ['unset', undefined, false],
  ['true', { sendReasoning: true }, false],
  ['false', { sendReasoning: false }, true],
])('sendReasoning %s: the hint %s', async (_, settings, hinted) => {
  const failure = await generateText({
    model: gateway()('dialect/thinking', settings),
    messages,
    maxRetries: 0,
  }).catch((error: unknown) => error);
  expect(APICallError.isInstance(failure), String(failure)).toBe(true);
  expect((failure as APICallError).statusCode).toBe(400);
  expect((failure as APICallError).message.includes('set sendReasoning: true')).toBe(hinted);
});

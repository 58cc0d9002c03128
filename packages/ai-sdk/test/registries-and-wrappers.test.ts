// Provider registries, custom providers and middleware wrappers of both AI SDK majors around our
// providers: ai@7 with the main entry (V4) and with `/v6` (V3, which ai@7 wraps), ai@6 (the
// `ai-v6` alias) with `/v6`. What `ai` takes for a V2 model or provider it adapts, converting usage
// (upstream, a provider misread this way reported usage as '[object Object]'): usage must stay
// numbers, and reasoning, tool calls and the served model must come through every wrapper.

import { wavWithSpeech } from '@infergate/emulator/fixtures';
import { emulate } from '@infergate/emulator/testing';
import * as ai7 from 'ai';
import * as ai6 from 'ai-v6';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { BASE_URL, providersOn, recordingChatBodies } from './providers';
import { WEATHER_TOOL } from './weather-tool';

const emulated = await emulate({ as: 'msw', baseURL: BASE_URL, hooks: { afterEach, afterAll } });
const { emulator } = emulated;
const { gateway: gatewayV4, gatewayV3 } = providersOn(emulated);

const REASONING = 'The user wrote 2 words. I answer by echoing them.';

function expectNumericUsage(usage: {
  inputTokens?: unknown;
  outputTokens?: unknown;
  totalTokens?: unknown;
}) {
  expect(typeof usage.inputTokens).toBe('number');
  expect(typeof usage.outputTokens).toBe('number');
  expect(typeof usage.totalTokens).toBe('number');
}

/**
 * The functions of `ai` these tests call. For everything used here ai@6's take the same arguments
 * as ai@7's, so one test body, typed by ai@7's declarations, runs on both majors (ai@6 names
 * `transcribe` `experimental_transcribe`, as every 6.x does).
 */
type AiModule = Pick<
  typeof ai7,
  | 'createProviderRegistry'
  | 'customProvider'
  | 'defaultSettingsMiddleware'
  | 'embedMany'
  | 'extractReasoningMiddleware'
  | 'generateText'
  | 'stepCountIs'
  | 'streamText'
  | 'tool'
  | 'transcribe'
  | 'wrapLanguageModel'
>;
const ai6Module = { ...ai6, transcribe: ai6.experimental_transcribe } as unknown as AiModule;

describe.each([
  { major: 'ai@7', entry: 'main (V4)', ai: ai7 as AiModule, provider: gatewayV4 },
  { major: 'ai@7', entry: '/v6 (V3, wrapped by ai@7)', ai: ai7 as AiModule, provider: gatewayV3 },
  { major: 'ai@6', entry: '/v6', ai: ai6Module, provider: gatewayV3 },
])('$major with the $entry provider', ({ ai, provider }) => {
  const weather = ai.tool(WEATHER_TOOL);

  it('createProviderRegistry: chat, embeddings and transcription by "infergate:<id>"', async () => {
    const registry = ai.createProviderRegistry({ infergate: provider() });
    const result = await ai.generateText({
      model: registry.languageModel('infergate:community/reasoner'),
      prompt: 'hello there',
    });
    expect(result.text).toBe('Echo: hello there');
    expect(result.reasoningText).toBe(REASONING);
    expectNumericUsage(result.usage);
    expect(result.usage.outputTokenDetails.reasoningTokens).toBe(10);
    expect(result.response.modelId).toBe('community/reasoner');

    const { embeddings } = await ai.embedMany({
      model: registry.embeddingModel('infergate:all-minilm-l6-v2'),
      values: ['a', 'b'],
    });
    expect(embeddings).toHaveLength(2);

    const transcript = await ai.transcribe({
      model: registry.transcriptionModel('infergate:speech_to_text'),
      audio: wavWithSpeech('hello registry'),
    });
    expect(transcript.text).toBe('hello registry');
  });

  it('customProvider with an alias and the gateway as fallback: tool loop and served model', async () => {
    const gateway = provider();
    const custom = ai.customProvider({
      languageModels: { fast: gateway('community/general') },
      fallbackProvider: gateway,
    });
    const result = ai.streamText({
      model: custom.languageModel('fast'),
      tools: { weather },
      stopWhen: ai.stepCountIs(3),
      prompt: 'Use weather for "Kyiv"',
    });
    expect(await result.text).toBe('Tool weather returned: {"city":"Kyiv","celsius":21}');
    expect((await result.steps)[0]?.toolCalls[0]).toMatchObject({ toolName: 'weather' });
    expectNumericUsage(await result.totalUsage);

    // The fallback path is where `ai` adapts a provider it does not take for its own version
    // (ai@6's asProviderV3, the V2 adapter that converts usage): ours says which it is, so its
    // models come through as they are.
    const fallback = await ai.generateText({
      model: custom.languageModel('my/laptop-model'),
      prompt: 'where am I',
    });
    expectNumericUsage(fallback.usage);
    expect(fallback.response.modelId).toBe('pool-a/llama-3-8b');
    expect(fallback.providerMetadata?.infergate).toMatchObject({
      servedModel: 'pool-a/llama-3-8b',
    });
  });

  it('wrapLanguageModel with extractReasoningMiddleware and defaultSettingsMiddleware', async () => {
    // The chat bodies sent: what a middleware's settings became.
    const recording = recordingChatBodies();
    const model = ai.wrapLanguageModel({
      model: provider(recording.settings)('community/reasoner'),
      middleware: [
        ai.extractReasoningMiddleware({ tagName: 'think' }),
        ai.defaultSettingsMiddleware({ settings: { temperature: 0.25 } }),
      ],
    });
    const generated = await ai.generateText({ model, prompt: 'hello there' });
    expect(generated.reasoningText).toBe(REASONING);
    expect(recording.bodies[0]).toMatchObject({ temperature: 0.25 });
    expectNumericUsage(generated.usage);

    const streamed = ai.streamText({
      model,
      tools: { weather },
      stopWhen: ai.stepCountIs(3),
      prompt: 'Use weather for "Kyiv"',
    });
    expect(await streamed.text).toContain('Tool weather returned');
    expect((await streamed.steps)[0]?.toolCalls[0]).toMatchObject({ input: { city: 'Kyiv' } });
    expectNumericUsage(await streamed.totalUsage);
    expect((await streamed.response).modelId).toBe('community/reasoner');
    expect(emulator.counters.requests.chat).toBe(3);
  });
});

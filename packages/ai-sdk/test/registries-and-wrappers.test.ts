// Provider registries, custom providers and middleware wrappers of both AI SDK majors around our
// providers: ai@7 with the main entry (V4) and with `/v6` (V3, which ai@7 wraps), ai@6 (the
// `ai-v6` alias) with `/v6`. What `ai` takes for a V2 model or provider it adapts, converting usage
// (upstream, a provider misread this way reported usage as '[object Object]'): usage must stay
// numbers, and reasoning, tool calls and the served model must come through every wrapper.
import { DEFAULT_KEYS } from '@infergate/emulator';
import { wavWithSpeech } from '@infergate/emulator/fixtures';
import * as ai7 from 'ai';
import * as ai6 from 'ai-v6';
import { describe, expect, it } from 'vitest';
import { z } from 'zod/v4';
import { createGateway as createGatewayV3, type GatewayProviderSettings } from '../src/v6';
import { BASE_URL, useEmulator } from './use-emulator';

const { emulator, gateway: gatewayV4 } = useEmulator();
const gatewayV3 = (settings: GatewayProviderSettings = {}) =>
  createGatewayV3({ baseURL: BASE_URL, apiKey: DEFAULT_KEYS.full, ...settings });

/** A fetch that keeps the chat request bodies it sends (what a middleware's settings became). */
function recordingFetch() {
  const sent: unknown[] = [];
  const record: typeof fetch = async (input, init) => {
    if (String(input).endsWith('/chat/completions') && typeof init?.body === 'string') {
      sent.push(JSON.parse(init.body));
    }
    return fetch(input, init);
  };
  return { sent, fetch: record };
}

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

const weather7 = ai7.tool({
  description: 'Current weather for a city',
  inputSchema: z.object({ city: z.string() }),
  execute: async ({ city }) => ({ city, celsius: 21 }),
});
const weather6 = ai6.tool({
  description: 'Current weather for a city',
  inputSchema: z.object({ city: z.string() }),
  execute: async ({ city }) => ({ city, celsius: 21 }),
});

describe.each([
  { entry: 'main (V4)', provider: (settings?: GatewayProviderSettings) => gatewayV4(settings) },
  {
    entry: '/v6 (V3, wrapped by ai@7)',
    provider: (settings?: GatewayProviderSettings) => gatewayV3(settings),
  },
])('ai@7 with the $entry provider', ({ provider }) => {
  it('createProviderRegistry: chat, embeddings and transcription by "infergate:<id>"', async () => {
    const registry = ai7.createProviderRegistry({ infergate: provider() });
    const result = await ai7.generateText({
      model: registry.languageModel('infergate:community/reasoner'),
      prompt: 'hello there',
    });
    expect(result.text).toBe('Echo: hello there');
    expect(result.reasoningText).toBe(REASONING);
    expectNumericUsage(result.usage);
    expect(result.usage.outputTokenDetails.reasoningTokens).toBe(10);
    expect(result.response.modelId).toBe('community/reasoner');

    const { embeddings } = await ai7.embedMany({
      model: registry.embeddingModel('infergate:all-minilm-l6-v2'),
      values: ['a', 'b'],
    });
    expect(embeddings).toHaveLength(2);

    const transcript = await ai7.transcribe({
      model: registry.transcriptionModel('infergate:speech_to_text'),
      audio: wavWithSpeech('hello registry'),
    });
    expect(transcript.text).toBe('hello registry');
  });

  it('customProvider with an alias and the gateway as fallback: tool loop and served model', async () => {
    const gateway = provider();
    const custom = ai7.customProvider({
      languageModels: { fast: gateway('community/general') },
      fallbackProvider: gateway,
    });
    const result = ai7.streamText({
      model: custom.languageModel('fast'),
      tools: { weather: weather7 },
      stopWhen: ai7.stepCountIs(3),
      prompt: 'Use weather for "Kyiv"',
    });
    expect(await result.text).toBe('Tool weather returned: {"city":"Kyiv","celsius":21}');
    expect((await result.steps)[0]?.toolCalls[0]).toMatchObject({ toolName: 'weather' });
    expectNumericUsage(await result.totalUsage);

    const fallback = await ai7.generateText({
      model: custom.languageModel('my/laptop-model'),
      prompt: 'where am I',
    });
    expect(fallback.response.modelId).toBe('pool-a/llama-3-8b');
    expect(fallback.providerMetadata?.infergate).toMatchObject({
      servedModel: 'pool-a/llama-3-8b',
    });
  });

  it('wrapLanguageModel with extractReasoningMiddleware and defaultSettingsMiddleware', async () => {
    const recording = recordingFetch();
    const model = ai7.wrapLanguageModel({
      model: provider({ fetch: recording.fetch })('community/reasoner'),
      middleware: [
        ai7.extractReasoningMiddleware({ tagName: 'think' }),
        ai7.defaultSettingsMiddleware({ settings: { temperature: 0.25 } }),
      ],
    });
    const generated = await ai7.generateText({ model, prompt: 'hello there' });
    expect(generated.reasoningText).toBe(REASONING);
    expect(recording.sent[0]).toMatchObject({ temperature: 0.25 });
    expectNumericUsage(generated.usage);

    const streamed = ai7.streamText({
      model,
      tools: { weather: weather7 },
      stopWhen: ai7.stepCountIs(3),
      prompt: 'Use weather for "Kyiv"',
    });
    expect(await streamed.text).toContain('Tool weather returned');
    expect((await streamed.steps)[0]?.toolCalls[0]).toMatchObject({ input: { city: 'Kyiv' } });
    expectNumericUsage(await streamed.totalUsage);
    expect((await streamed.response).modelId).toBe('community/reasoner');
  });
});

describe('ai@6 with the /v6 provider', () => {
  it('createProviderRegistry: chat, embeddings and transcription by "infergate:<id>"', async () => {
    const registry = ai6.createProviderRegistry({ infergate: gatewayV3() });
    const result = await ai6.generateText({
      model: registry.languageModel('infergate:community/reasoner'),
      prompt: 'hello there',
    });
    expect(result.text).toBe('Echo: hello there');
    expect(result.reasoningText).toBe(REASONING);
    expectNumericUsage(result.usage);
    expect(result.usage.outputTokenDetails.reasoningTokens).toBe(10);
    expect(result.response.modelId).toBe('community/reasoner');

    const { embeddings } = await ai6.embedMany({
      model: registry.embeddingModel('infergate:all-minilm-l6-v2'),
      values: ['a', 'b'],
    });
    expect(embeddings).toHaveLength(2);

    const transcript = await ai6.experimental_transcribe({
      model: registry.transcriptionModel('infergate:speech_to_text'),
      audio: wavWithSpeech('hello registry'),
    });
    expect(transcript.text).toBe('hello registry');
  });

  it('customProvider with an alias and the gateway as fallback: tool loop and served model', async () => {
    const gateway = gatewayV3();
    const custom = ai6.customProvider({
      languageModels: { fast: gateway('community/general') },
      fallbackProvider: gateway,
    });
    const result = ai6.streamText({
      model: custom.languageModel('fast'),
      tools: { weather: weather6 },
      stopWhen: ai6.stepCountIs(3),
      prompt: 'Use weather for "Kyiv"',
    });
    expect(await result.text).toBe('Tool weather returned: {"city":"Kyiv","celsius":21}');
    expect((await result.steps)[0]?.toolCalls[0]).toMatchObject({ toolName: 'weather' });
    expectNumericUsage(await result.totalUsage);

    // The fallback path is where ai@6 adapts a provider it does not take for V3 (asProviderV3, the
    // V2 adapter that converts usage): ours says v3, so its models come through as they are.
    const fallback = await ai6.generateText({
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
    const recording = recordingFetch();
    const model = ai6.wrapLanguageModel({
      model: gatewayV3({ fetch: recording.fetch })('community/reasoner'),
      middleware: [
        ai6.extractReasoningMiddleware({ tagName: 'think' }),
        ai6.defaultSettingsMiddleware({ settings: { temperature: 0.25 } }),
      ],
    });
    const generated = await ai6.generateText({ model, prompt: 'hello there' });
    expect(generated.reasoningText).toBe(REASONING);
    expect(recording.sent[0]).toMatchObject({ temperature: 0.25 });
    expectNumericUsage(generated.usage);

    const streamed = ai6.streamText({
      model,
      tools: { weather: weather6 },
      stopWhen: ai6.stepCountIs(3),
      prompt: 'Use weather for "Kyiv"',
    });
    expect(await streamed.text).toContain('Tool weather returned');
    expect((await streamed.steps)[0]?.toolCalls[0]).toMatchObject({ input: { city: 'Kyiv' } });
    expectNumericUsage(await streamed.totalUsage);
    expect((await streamed.response).modelId).toBe('community/reasoner');
    expect(emulator.counters.requests.chat).toBe(3);
  });
});

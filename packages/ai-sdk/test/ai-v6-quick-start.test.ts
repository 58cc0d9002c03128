// The README's AI SDK quick start under ai@6 (the `ai-v6` alias of ai@6.x), through
// `@infergate/ai-sdk/v6` and ai@6's own entry points, against the emulator.

import { APICallError, NoSuchModelError, UnsupportedFunctionalityError } from '@ai-sdk/provider-v3';
import { wavWithSpeech } from '@infergate/emulator/fixtures';
import { emulate } from '@infergate/emulator/testing';
import {
  embedMany,
  generateText,
  Output,
  RetryError,
  stepCountIs,
  streamText,
  tool,
  experimental_transcribe as transcribe,
} from 'ai-v6';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { z } from 'zod/v4';
import { UnsupportedModelCapabilityError } from '../src/v6';
import { BASE_URL, providersOn } from './providers';
import { WEATHER_TOOL } from './weather-tool';

const emulated = await emulate({ as: 'msw', baseURL: BASE_URL, hooks: { afterEach, afterAll } });
const { emulator } = emulated;
const { gatewayV3: gateway } = providersOn(emulated);

const weather = tool(WEATHER_TOOL);

describe('ai@6 quick start through @infergate/ai-sdk/v6', () => {
  it('models are V3 and the provider says so', () => {
    const provider = gateway();
    expect(provider.specificationVersion).toBe('v3');
    expect(provider('community/general').specificationVersion).toBe('v3');
    expect(provider.embeddingModel().specificationVersion).toBe('v3');
    expect(provider.transcriptionModel().specificationVersion).toBe('v3');
  });

  it('has no image, speech or reranking models, and textEmbeddingModel is embeddingModel', () => {
    const provider = gateway();
    // `isInstance`, as ai@6 checks: the error comes from `@ai-sdk/provider` 4, ai@6 has 3.
    const thrown = (make: () => unknown) => {
      try {
        make();
      } catch (error) {
        return error;
      }
    };
    expect(NoSuchModelError.isInstance(thrown(() => provider.imageModel('any')))).toBe(true);
    expect(NoSuchModelError.isInstance(thrown(() => provider.speechModel('any')))).toBe(true);
    expect(NoSuchModelError.isInstance(thrown(() => provider.rerankingModel('any')))).toBe(true);
    expect(provider.textEmbeddingModel('all-minilm-l6-v2').modelId).toBe('all-minilm-l6-v2');
  });

  it("passes the V4 model's warnings on as V3 warnings", async () => {
    const result = await generateText({
      model: gateway()('community/general'),
      prompt: 'hi',
      topK: 3,
    });
    expect(result.warnings).toContainEqual(
      expect.objectContaining({ type: 'unsupported', feature: 'topK' }),
    );
  });

  it('generateText: text, numeric usage, served model', async () => {
    const result = await generateText({
      model: gateway()('my/laptop-model'),
      prompt: 'where am I',
    });
    expect(result.text).toBe('Echo: where am I');
    expect(result.finishReason).toBe('stop');
    expect(typeof result.usage.inputTokens).toBe('number');
    expect(typeof result.usage.totalTokens).toBe('number');
    expect(result.response.modelId).toBe('pool-a/llama-3-8b');
    expect(result.providerMetadata?.infergate).toMatchObject({
      requestedModel: 'my/laptop-model',
      servedModel: 'pool-a/llama-3-8b',
      fallback: true,
    });
  });

  it('streamText with tools and stopWhen runs the tool loop', async () => {
    const result = streamText({
      model: gateway()('community/general'),
      tools: { weather },
      stopWhen: stepCountIs(3),
      prompt: 'Use weather for "Kyiv"',
    });
    expect(await result.text).toBe('Tool weather returned: {"city":"Kyiv","celsius":21}');
    const steps = await result.steps;
    expect(steps).toHaveLength(2);
    expect(steps[0]?.toolCalls[0]).toMatchObject({ toolName: 'weather', input: { city: 'Kyiv' } });
    expect(steps[0]?.finishReason).toBe('tool-calls');
    expect(typeof (await result.totalUsage).outputTokens).toBe('number');
    expect(emulator.counters.requests.chat).toBe(2);
  });

  it('generateText with Output.object', async () => {
    const result = await generateText({
      model: gateway()('community/general'),
      output: Output.object({ schema: z.object({ title: z.string(), year: z.number() }) }),
      prompt: 'A film',
    });
    expect(result.output).toEqual({ title: expect.any(String), year: expect.any(Number) });
    expect(result.request.body).toMatchObject({ response_format: { type: 'json_schema' } });
  });

  it('reasoning: generated and streamed, with reasoning tokens', async () => {
    const generated = await generateText({
      model: gateway()('community/reasoner'),
      prompt: 'hello there',
    });
    expect(generated.reasoningText).toBe('The user wrote 2 words. I answer by echoing them.');
    expect(generated.text).toBe('Echo: hello there');
    expect(generated.usage.outputTokenDetails.reasoningTokens).toBe(10);

    const streamed = streamText({ model: gateway()('community/reasoner'), prompt: 'hello there' });
    expect(await streamed.reasoningText).toBe('The user wrote 2 words. I answer by echoing them.');
    expect(await streamed.text).toBe('Echo: hello there');
  });

  it('embedMany: vectors in order, split by the gateway limit', async () => {
    const values = Array.from({ length: 70 }, (_, i) => `text ${i}`);
    const { embeddings, usage } = await embedMany({
      model: gateway().embeddingModel('all-minilm-l6-v2'),
      values,
    });
    expect(embeddings).toHaveLength(70);
    expect(embeddings[0]).toHaveLength(384);
    expect(typeof usage.tokens).toBe('number');
    expect(emulator.counters.requests.embeddings).toBe(2);
  });

  it('transcription (experimental_transcribe, the name every ai@6 has)', async () => {
    const result = await transcribe({
      model: gateway().transcriptionModel(),
      audio: wavWithSpeech('hello from the test', { seconds: 2 }),
      providerOptions: { infergate: { language: 'en' } },
    });
    expect(result.text).toBe('hello from the test');
    expect(result.durationInSeconds).toBe(2);
    expect(result.responses[0]?.modelId).toBe('speech_to_text');
  });

  it('refuses a call the model cannot serve before sending it', async () => {
    const error = await generateText({
      model: gateway()('community/plain'),
      tools: { weather },
      prompt: 'hi',
    }).catch((e: unknown) => e);
    expect(UnsupportedModelCapabilityError.isInstance(error)).toBe(true);
    expect(UnsupportedFunctionalityError.isInstance(error)).toBe(true);
    expect((error as Error).message).toContain('tools');
    expect(emulator.counters.requests.chat).toBe(0);
  });

  it('a gateway error is a typed APICallError; ai@6 owns the retries', async () => {
    emulator.injectFault({ fault: 'rate_limit', endpoint: 'chat', retryAfter: 0, times: 10 });
    const once = await generateText({
      model: gateway()('community/general'),
      prompt: 'hi',
      maxRetries: 0,
    }).catch((e: unknown) => e);
    expect(APICallError.isInstance(once)).toBe(true);
    expect((once as APICallError).statusCode).toBe(429);
    expect((once as APICallError).isRetryable).toBe(true);
    expect(emulator.counters.requests.chat).toBe(1);

    const retried = await generateText({
      model: gateway()('community/general'),
      prompt: 'hi',
      maxRetries: 2,
    }).catch((e: unknown) => e);
    expect(RetryError.isInstance(retried)).toBe(true);
    expect(emulator.counters.requests.chat).toBe(4);
  });

  it("the service tools run in ai@6's tool loop", async () => {
    const provider = gateway();
    const result = await generateText({
      model: provider('community/general'),
      tools: { translate: provider.tools.translate({ targetLanguage: 'de' }) },
      stopWhen: stepCountIs(3),
      prompt: 'Please translate "good morning" with translate',
    });
    expect(result.steps[0]?.toolCalls[0]).toMatchObject({
      toolName: 'translate',
      input: { text: 'good morning' },
    });
    expect(result.text).toContain('[de] good morning');
    expect(emulator.counters.requests.translations).toBe(1);
  });
});

// Usage in every stream (docs/gateway-protocol.md §5.6): `streamText` asks for it, under ai@7 and
// ai@6, against the emulator, which (like vLLM or llama.cpp) sends usage only when asked.

import { InvalidArgumentError } from '@ai-sdk/provider';
import { emulate } from '@infergate/emulator/testing';
import { streamText } from 'ai';
import { streamText as streamTextV6 } from 'ai-v6';
import { describe, expect, it, onTestFinished } from 'vitest';
import { providersOn, providersOnMsw, recordingChatBodies } from './providers';

const { gateway, gatewayV3 } = await providersOnMsw();

const recording = recordingChatBodies;

describe('usage in every stream', () => {
  it('ai@7: streamText usage is filled, and stream_options asked for it', async () => {
    const { bodies, settings } = recording();
    const result = streamText({
      model: gateway(settings)('community/streamer'),
      prompt: 'hi',
      include: { requestBody: true },
    });
    await result.consumeStream();
    const usage = await result.usage;
    expect(usage.inputTokens).toBe(1);
    expect(usage.outputTokens).toBe(2);
    expect(usage.totalTokens).toBe(3);
    expect(bodies[0]).toMatchObject({ stream: true, stream_options: { include_usage: true } });
    // `request.body` is the body as sent.
    expect((await result.request).body).toMatchObject({
      stream_options: { include_usage: true },
    });
  });

  // The emulator's default (`gateway`) dialect is the spec's order: the finish chunk, usage in
  // it, is the last before [DONE]; `openai` sends a usage-only chunk after it. Both are read.
  it.each(['gateway', 'openai'] as const)('ai@7: usage read in the %s order', async (dialect) => {
    const own = await emulate({ scenario: { models: { 'community/streamer': { dialect } } } });
    onTestFinished(() => own.close());
    const result = streamText({
      model: providersOn(own).gateway({ fetch: own.fetch })('community/streamer'),
      prompt: 'hi',
    });
    await result.consumeStream();
    expect(await result.finishReason).toBe('stop');
    expect((await result.usage).totalTokens).toBe(3);
  });

  it('ai@6 (/v6): streamText usage is filled', async () => {
    const { bodies, settings } = recording();
    const result = streamTextV6({ model: gatewayV3(settings)('community/streamer'), prompt: 'hi' });
    await result.consumeStream();
    expect((await result.usage).totalTokens).toBe(3);
    expect(bodies[0]).toMatchObject({ stream_options: { include_usage: true } });
  });

  it('the provider setting streamUsage: false sends no stream_options (and the stream has no usage)', async () => {
    const { bodies, settings } = recording({ streamUsage: false });
    const result = streamText({
      model: gateway(settings)('community/streamer'),
      prompt: 'hi',
      include: { requestBody: true },
    });
    expect(await result.text).toBe('Echo: hi');
    expect((await result.usage).totalTokens).toBeUndefined();
    expect(bodies[0]).not.toHaveProperty('stream_options');
    expect((await result.request).body).not.toHaveProperty('stream_options');
  });

  it('providerOptions.infergate.streamUsage overrides the provider, both ways, and is not sent', async () => {
    const optedOut = recording({ streamUsage: false });
    const asked = streamText({
      model: gateway(optedOut.settings)('community/streamer'),
      prompt: 'hi',
      providerOptions: { infergate: { streamUsage: true } },
    });
    expect((await asked.usage).totalTokens).toBe(3);
    expect(optedOut.bodies[0]).toMatchObject({ stream_options: { include_usage: true } });
    expect(optedOut.bodies[0]).not.toHaveProperty('streamUsage');

    const v7 = recording();
    await streamText({
      model: gateway(v7.settings)('community/streamer'),
      prompt: 'hi',
      providerOptions: { infergate: { streamUsage: false } },
    }).consumeStream();
    expect(v7.bodies[0]).not.toHaveProperty('stream_options');
    expect(v7.bodies[0]).not.toHaveProperty('streamUsage');

    const v6 = recording();
    const unasked = streamTextV6({
      model: gatewayV3(v6.settings)('community/streamer'),
      prompt: 'hi',
      providerOptions: { infergate: { streamUsage: false } },
    });
    expect((await unasked.usage).totalTokens).toBeUndefined();
    expect(v6.bodies[0]).not.toHaveProperty('stream_options');
    expect(v6.bodies[0]).not.toHaveProperty('streamUsage');
  });

  it("a call's own stream_options (providerOptions.infergate.stream_options) is sent as given", async () => {
    const { bodies, settings } = recording();
    const result = streamText({
      model: gateway(settings)('community/streamer'),
      prompt: 'hi',
      providerOptions: { infergate: { stream_options: { include_usage: false } } },
    });
    await result.consumeStream();
    expect(bodies[0]?.stream_options).toEqual({ include_usage: false });
    expect((await result.usage).totalTokens).toBeUndefined();
  });

  it('refuses a streamUsage that is not a boolean, naming it, before sending', async () => {
    const { bodies, settings } = recording();
    const errors: unknown[] = [];
    await streamText({
      model: gateway(settings)('community/streamer'),
      prompt: 'hi',
      providerOptions: { infergate: { streamUsage: 'no' } },
      onError: ({ error }) => {
        errors.push(error);
      },
    }).consumeStream();
    const error = errors[0];
    expect(InvalidArgumentError.isInstance(error)).toBe(true);
    expect((error as Error).message).toBe(
      'providerOptions.infergate.streamUsage is "no"; allowed: true or false',
    );
    expect(bodies).toHaveLength(0);
  });
});

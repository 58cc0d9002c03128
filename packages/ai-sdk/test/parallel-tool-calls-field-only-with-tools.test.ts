// docs/gateway-protocol.md §4.2: a `parallel_tool_calls` request field given in
// `providerOptions.infergate` is sent only with tools: an OpenAI-backed model server refuses it
// without them ("parallel_tool_calls is only allowed when tools are specified") (rv-25b F4).
import { generateText, tool } from 'ai';
import { describe, expect, it } from 'vitest';
import { z } from 'zod/v4';
import { providersOnMsw, recordingChatBodies } from './providers';

const { gateway } = await providersOnMsw();

const providerOptions = { infergate: { parallel_tool_calls: false } };

describe('providerOptions.infergate.parallel_tool_calls', () => {
  it('without tools: not sent, and a model without tools answers', async () => {
    const { bodies, settings } = recordingChatBodies();
    const { text } = await generateText({
      model: gateway(settings)('community/plain'),
      prompt: 'hi',
      providerOptions,
    });
    expect(text).toBe('Echo: hi');
    expect(Object.keys(bodies[0]!)).not.toContain('parallel_tool_calls');
  });

  it('with tools: sent', async () => {
    const { bodies, settings } = recordingChatBodies();
    const weather = tool({ inputSchema: z.object({ city: z.string() }) });
    await generateText({
      model: gateway(settings)('community/tools'),
      prompt: 'hi',
      tools: { weather },
      providerOptions,
    });
    expect(bodies[0]).toMatchObject({ parallel_tool_calls: false });
  });
});

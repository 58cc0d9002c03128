import type { SharedV4ProviderOptions } from '@ai-sdk/provider';
import { generateText, stepCountIs, streamText, tool } from 'ai';
import {
  generateText as generateTextV6,
  stepCountIs as stepCountIsV6,
  tool as toolV6,
} from 'ai-v6';
import { describe, expect, it } from 'vitest';
import { providersOnMsw } from '../../test/providers';
import { WEATHER_TOOL } from '../../test/weather-tool';
import { convertToGatewayChatMessages } from './convert-to-gateway-chat-messages';

// Gemini 3 behind the gateway: tool calls carry a thought signature, and a step that replays a
// call without it, or a tool result without its tool's name, is refused with a 400 (the
// emulator's `gemini` dialect).
const MODEL = 'community/general';
const { emulator, gateway, gatewayV3 } = await providersOnMsw({
  models: { [MODEL]: { dialect: 'gemini' } },
});
const weather = tool(WEATHER_TOOL);
const PROMPT = 'Use weather for "Kyiv"';
const ANSWER = 'Tool weather returned: {"city":"Kyiv","celsius":21}';

describe("Gemini's thought signatures through a multi-step tool loop", () => {
  it('generateText: the signature is on the call and goes back with it at step 2', async () => {
    const result = await generateText({
      model: gateway()(MODEL),
      tools: { weather },
      stopWhen: stepCountIs(2),
      prompt: PROMPT,
      include: { requestBody: true },
    });
    const metadata = result.steps[0]?.content.find((part) => part.type === 'tool-call')
      ?.providerMetadata?.infergate;
    expect(metadata).toEqual({
      thoughtSignature: expect.any(String),
      extraContent: { google: { thought_signature: metadata?.thoughtSignature } },
    });
    expect(result.text).toBe(ANSWER);
    const sent = result.steps[1]?.request.body as { messages: { tool_calls?: unknown[] }[] };
    expect(sent.messages[1]?.tool_calls?.[0]).toMatchObject({
      extra_content: { google: { thought_signature: metadata?.thoughtSignature } },
    });
    // Gemini refuses a tool result without its tool's name: the part's toolName is sent.
    expect(sent.messages[2]).toMatchObject({ role: 'tool', name: 'weather' });
    expect(emulator.counters.requests.chat).toBe(2);
  });

  it('streamText: the same from the stream', async () => {
    const result = streamText({
      model: gateway()(MODEL),
      tools: { weather },
      stopWhen: stepCountIs(2),
      prompt: PROMPT,
    });
    expect(await result.text).toBe(ANSWER);
    const [first] = await result.steps;
    const call = first?.content.find((part) => part.type === 'tool-call');
    expect(call?.providerMetadata?.infergate?.thoughtSignature).toEqual(expect.any(String));
    expect(emulator.counters.requests.chat).toBe(2);
  });

  it('ai@6 (/v6): generateText too', async () => {
    const result = await generateTextV6({
      model: gatewayV3()(MODEL),
      tools: { weather: toolV6(WEATHER_TOOL) },
      stopWhen: stepCountIsV6(2),
      prompt: PROMPT,
    });
    expect(result.text).toBe(ANSWER);
  });
});

describe('a replayed tool call takes its extra_content from the part', () => {
  const replay = (providerOptions: SharedV4ProviderOptions | undefined) =>
    convertToGatewayChatMessages([
      {
        role: 'assistant',
        content: [
          { type: 'tool-call', toolCallId: 'c1', toolName: 'f', input: {}, providerOptions },
        ],
      },
    ])[0]?.tool_calls?.[0]?.extra_content;

  it('ours whole, else a signature (ours or Google providers’), else none', () => {
    const whole = { google: { thought_signature: 's1' }, other: { n: 1 } };
    expect(replay({ infergate: { extraContent: whole, thoughtSignature: 's1' } })).toBe(whole);
    expect(replay({ infergate: { thoughtSignature: 's2' } })).toEqual({
      google: { thought_signature: 's2' },
    });
    expect(replay({ google: { thoughtSignature: 's3' } })).toEqual({
      google: { thought_signature: 's3' },
    });
    expect(replay(undefined)).toBeUndefined();
    expect(replay({ infergate: { thoughtSignature: 7 } })).toBeUndefined();
  });
});

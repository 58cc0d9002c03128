// A `/v6` service tool's refused input, through ai@6's generateText: the tool error the model gets
// back quotes that input once (ai's own TypeValidationError), as on the main entry; the refusal
// is core's problem, and nothing reaches the translation service.
import { oneMessageAnswer } from '@infergate/emulator/testing';
import * as ai6 from 'ai-v6';
import { describe, expect, it } from 'vitest';
import { answeringChats, type ChatBody, providersOnMsw } from '../../test/providers';

const { emulator, gatewayV3 } = await providersOnMsw();
const OVER_LIMIT = 'я'.repeat(2049); // 4,098 bytes of UTF-8: over the service's 4,096

describe('/v6 service tools under ai@6', () => {
  it('hands a refused input back to the model once, with core’s problem', async () => {
    const bodies: ChatBody[] = [];
    const fetch = answeringChats((body) => {
      bodies.push(body);
      if (bodies.length > 1)
        return oneMessageAnswer(body.model, { content: 'done' }, 'stop', false);
      const args = JSON.stringify({ text: OVER_LIMIT, target_language: 'uk' });
      const call = { id: 'c1', type: 'function', function: { name: 'translate', arguments: args } };
      return oneMessageAnswer(
        body.model,
        { content: null, tool_calls: [call] },
        'tool_calls',
        false,
      );
    });
    const gateway = gatewayV3({ fetch, circuitBreaker: false });
    const result = await ai6.generateText({
      model: gateway('community/general'),
      prompt: 'translate this',
      tools: { translate: gateway.tools.translate() },
      stopWhen: ai6.stepCountIs(2),
      maxRetries: 0,
    });
    const messages = (bodies[1]?.messages ?? []) as { role: string; content: string }[];
    const toolMessage = messages.find((message) => message.role === 'tool');
    const sentBack = toolMessage?.content ?? '';
    expect(sentBack).toContain('is 4098 bytes of UTF-8; the limit is 4096 bytes');
    expect(sentBack.split(OVER_LIMIT).length - 1).toBe(1);
    expect(result.text).toBe('done');
    expect(emulator.counters.requests.translations).toBe(0);
  });
});

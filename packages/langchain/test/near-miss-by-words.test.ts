import { describe, expect, it } from 'vitest';
import { GatewayChatModel } from '../src/index';
import { recordingGateway } from './helpers';
import { refusedCallKey, refusedModelKey } from './refused-before-sending';

const NEAR_MISSES: [string, string][] = [
  ['fallbacks', 'fallbackModels'],
  ['fallback', 'fallbackModels'],
  ['hedging', 'hedge'],
  ['hedgeAfterMs', 'hedge'],
  ['maxRetry', 'maxRetries'],
  ['maxconcurrency', 'maxConcurrency'],
];

describe('a near miss by its words', () => {
  it.each(NEAR_MISSES)(
    'new GatewayChatModel({ %s }) is refused, naming `%s`',
    async (key, meant) => {
      const error = await refusedModelKey(key);
      expect(error.code).toBe('configuration_error');
      expect(error.field).toBe(key);
      expect(error.message).toContain(`unknown option \`${key}\` in new GatewayChatModel`);
      expect(error.message).toContain(`did you mean \`${meant}\`?`);
    },
  );

  it.each(NEAR_MISSES)(
    'invoke(input, { %s }) is refused before any request',
    async (key, meant) => {
      const { error, bodies } = await refusedCallKey(key);
      expect(error.code).toBe('invalid_request_error');
      expect(error.message).toContain(`did you mean \`${meant}\`?`);
      expect(bodies).toEqual([]);
    },
  );

  it('request fields a call sends, and LangChain’s own keys, still pass', async () => {
    const { bodies, connection } = await recordingGateway();
    const model = new GatewayChatModel('community/general', connection);
    const fields = {
      top_k: 4,
      repetition_penalty: 1.1,
      reasoning_effort: 'low',
      stream_options: { include_usage: true },
      parallel_tool_calls: false,
      seed: 7,
    };
    // (A tool, as `parallel_tool_calls` is sent only with tools.)
    const tools = [{ type: 'function' as const, function: { name: 'f', parameters: {} } }];
    await model.invoke('one two three', {
      ...fields,
      tools,
      metadata: { m: 1 },
      maxConcurrency: 1,
      maxRetries: 0,
    } as never);
    expect(bodies[0]).toMatchObject({ top_k: 4, repetition_penalty: 1.1, seed: 7 });
    expect(bodies[0]).toMatchObject({ reasoning_effort: 'low', parallel_tool_calls: false });
  });
});

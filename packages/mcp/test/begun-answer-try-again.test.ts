/**
 * A 2xx answer that failed once begun (a cut or garbled 200: core's `invalid_response`,
 * `isRetryable: false` but worth a new call, docs §10.5) tells the model to try again, not to stop
 * (rv-fix2 F2): the question is whether a NEW call may succeed, which is `isWorthNewCall`.
 */
import { beforeEach, describe, expect, it } from 'vitest';
import { connectedHarnessOfFile } from './harness';

const { harness, client } = connectedHarnessOfFile();
beforeEach(() => harness().gateway.reset());

const errorOf = async (tool: string, args: Record<string, unknown>) => {
  const result = await client().callTool({ name: tool, arguments: args });
  return (result.structuredContent as { error: Record<string, unknown> }).error;
};

describe('what the model is told about a begun answer that failed', () => {
  it('a 200 whose JSON is cut: try again', async () => {
    harness().gateway.emulator.injectFault({ fault: 'truncated_json', endpoint: 'translations' });
    const error = await errorOf('translate', { text: 'hi', target_language: 'uk' });
    expect(error).toMatchObject({ code: 'invalid_response' });
    expect(error.what_to_do).toBe(
      'The gateway or its model server failed: try again in a little while.',
    );
  });

  it.each(['no_finish', 'stream_error'] as const)(
    'a streamed 200 that fails after it began (%s): try again',
    async (fault) => {
      harness().gateway.emulator.injectFault({ fault, endpoint: 'chat' });
      const result = await client().callTool(
        { name: 'ask_model', arguments: { model: 'community/general', prompt: 'hi' } },
        undefined,
        { onprogress: () => {} },
      );
      const error = (result.structuredContent as { error: Record<string, unknown> }).error;
      expect(error.what_to_do).toBe(
        'The gateway or its model server failed: try again in a little while.',
      );
    },
  );
});

/**
 * An engine's own 4xx (core's `upstream_error`, status 400, `isRetryable: false`) tells the model
 * to change the input or stop, not to try again (rv-svc F5): a model told to retry would resend
 * an input that can never pass. A failure core would retry still says to try again later.
 */
import { wavWithSpeech } from '@infergate/emulator/fixtures';
import { beforeEach, describe, expect, it } from 'vitest';
import { connectedHarnessOfFile } from './harness';

const { harness, client } = connectedHarnessOfFile();
beforeEach(() => harness().gateway.reset());

const CALLS = [
  ['translate', 'translations', { text: 'hi', target_language: 'uk' }],
  ['embed', 'embeddings', { texts: ['a'], engine: 'all-minilm-l6-v2' }],
  [
    'transcribe',
    'transcriptions',
    { audio_base64: Buffer.from(wavWithSpeech('hi')).toString('base64') },
  ],
] as const;

const errorOf = async (tool: string, args: Record<string, unknown>) => {
  const result = await client().callTool({ name: tool, arguments: args });
  return (result.structuredContent as { error: Record<string, unknown> }).error;
};

describe('what the model is told to do about an upstream failure', () => {
  it.each(CALLS)(
    '%s: an engine rejecting the input (400): change it or stop',
    async (tool, endpoint, args) => {
      harness().gateway.emulator.injectFault({ fault: 'upstream_json', endpoint, times: 1 });
      const error = await errorOf(tool, args);
      expect(error).toMatchObject({ code: 'upstream_error', status: 400 });
      expect(error.what_to_do).toMatch(/change it, or stop/);
      expect(error.what_to_do).not.toMatch(/try again/);
    },
  );

  it('a 500 core would retry: try again later', async () => {
    harness().gateway.emulator.injectFault({
      fault: 'upstream_text',
      endpoint: 'translations',
      times: 1,
    });
    const error = await errorOf('translate', { text: 'hi', target_language: 'uk' });
    expect(error).toMatchObject({ code: 'upstream_error', status: 500 });
    expect(error.what_to_do).toBe(
      'The gateway or its model server failed: try again in a little while.',
    );
  });
});

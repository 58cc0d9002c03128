// withStructuredOutput on an answer in which the model refused (OpenAI's `refusal`, whole and
// streamed): the error says the model refused and quotes it, rather than "not JSON" about the
// refusal's own words. Core's structured check decides; the adapter maps.
import { caught, emulate } from '@infergate/emulator/testing';
import { OutputParserException } from '@langchain/core/output_parsers';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { GatewayChatModel } from '../src/index';
import { intercepting } from './helpers';

const REFUSAL = "I'm sorry, I can't help with that.";

/** The emulator, its chat completions answered with REFUSAL (streamed in two pieces). */
async function refusing() {
  return intercepting(await emulate(), async (request) => {
    if (!request.url.endsWith('/chat/completions')) return undefined;
    const body = (await request.json()) as { stream?: boolean };
    if (body.stream !== true) {
      const message = { role: 'assistant', content: null, refusal: REFUSAL };
      const choices = [{ index: 0, message, finish_reason: 'stop' }];
      return Response.json({ id: 'a', object: 'chat.completion', choices });
    }
    const frame = (choice: object) =>
      `data: ${JSON.stringify({ id: 'a', object: 'chat.completion.chunk', choices: [choice] })}\n\n`;
    const frames = [
      frame({ index: 0, delta: { role: 'assistant', refusal: REFUSAL.slice(0, 10) } }),
      frame({ index: 0, delta: { refusal: REFUSAL.slice(10) } }),
      frame({ index: 0, delta: {}, finish_reason: 'stop' }),
      'data: [DONE]\n\n',
    ];
    return new Response(frames.join(''), { headers: { 'content-type': 'text/event-stream' } });
  });
}

const expectRefused = (error: unknown) => {
  // (LangChain's parser error, as for any answer that fails the schema, with core's message.)
  expect(error).toBeInstanceOf(OutputParserException);
  expect((error as Error).message).toContain(`the model refused to answer`);
  expect((error as Error).message).toContain(JSON.stringify(REFUSAL));
  expect((error as Error).message).not.toContain('not JSON');
};

describe('withStructuredOutput: a refusal', () => {
  it('invoke and stream fail naming the refusal', async () => {
    const model = new GatewayChatModel('community/json-schema', {
      ...(await refusing()),
      maxRetries: 0,
    });
    const structured = model.withStructuredOutput(z.object({ city: z.string() }));
    expectRefused(await caught(structured.invoke('Where?')));
    expectRefused(
      await caught(
        (async () => {
          for await (const _ of await structured.stream('Where?')) {
            // read to the end
          }
        })(),
      ),
    );
  });
});

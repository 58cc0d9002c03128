import { caught } from '@infergate/emulator/testing';
import { describe, expect, it } from 'vitest';
import { isGatewayError } from '../src/index';
import { askingPlace, soNativeAnswering } from './helpers';

// A structured answer cut at the length limit: its error names the limit, not only "not JSON".
// (The emulator serves the catalog; a stub answers the chat: the emulator cuts only text answers
// at `max_tokens`.)
const CUT = '{"city":"Os';

async function clientAnswering(stream: boolean) {
  const body = stream
    ? [
        `data: {"choices":[{"index":0,"delta":{"role":"assistant","content":${JSON.stringify(CUT)}}}]}`,
        'data: {"choices":[{"index":0,"delta":{},"finish_reason":"length"}]}',
        'data: [DONE]',
        '',
      ].join('\n\n')
    : JSON.stringify({
        choices: [
          { index: 0, message: { role: 'assistant', content: CUT }, finish_reason: 'length' },
        ],
      });
  return soNativeAnswering(body, stream ? 'text/event-stream' : 'application/json');
}

const request = { ...askingPlace('community/so-native'), max_tokens: 4 };

describe('structured output cut at max_tokens', () => {
  it('a whole answer: invalid_structured_output names the length limit', async () => {
    const error = await caught(
      async () => (await clientAnswering(false)).chat(request),
      isGatewayError,
    );
    expect(error.code).toBe('invalid_structured_output');
    expect(error.message).toContain('cut at the length limit (finish_reason "length")');
  });

  it('a stream: its end check names the length limit too', async () => {
    const error = await caught(async () => {
      const stream = await (await clientAnswering(true)).chatStream(request);
      return stream.result();
    }, isGatewayError);
    expect(error.code).toBe('invalid_structured_output');
    expect(error.message).toContain('cut at the length limit (finish_reason "length")');
  });
});

// docs/gateway-protocol.md §4.3: an answer with content and OpenAI's `refusal` beside it. The
// message's content is the content alone (as `ChatOpenAI`'s), so JSON content still parses; the
// refusal is kept in `additional_kwargs.refusal`. A refusal with no content stays the text.
import {
  chatsAnsweredBy,
  emulate,
  oneMessageAnswer,
  type ScriptedChatBody,
} from '@infergate/emulator/testing';
import { JsonOutputParser } from '@langchain/core/output_parsers';
import { afterAll, describe, expect, it } from 'vitest';
import { GatewayChatModel } from '../index';

const emulated = await emulate();
afterAll(() => emulated.close());

function modelAnswering(message: { content: string | null; refusal: string }) {
  const fetch = chatsAnsweredBy(emulated.connection, (body: ScriptedChatBody) =>
    oneMessageAnswer(body.model, { ...message }, 'stop', body.stream === true),
  );
  return new GatewayChatModel('community/general', { ...emulated.connection, fetch });
}

describe('a refusal beside the content', () => {
  it('keeps the content alone as the text, the refusal in additional_kwargs', async () => {
    const model = modelAnswering({ content: '{"a":1}', refusal: 'I cannot' });
    expect(await model.pipe(new JsonOutputParser()).invoke('x')).toEqual({ a: 1 });
    const message = await model.invoke('x');
    expect(message.content).toBe('{"a":1}');
    expect(message.additional_kwargs.refusal).toBe('I cannot');
  });

  it('a refusal alone stays the text', async () => {
    const message = await modelAnswering({ content: null, refusal: 'I cannot' }).invoke('x');
    expect(message.content).toBe('I cannot');
    expect(message.additional_kwargs.refusal).toBe('I cannot');
    expect(message.response_metadata.finish_reason).toBe('content_filter');
  });
});

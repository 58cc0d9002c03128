// Audio and images the model generated (OpenAI's `message.audio`, streamed as `delta.audio`
// pieces; OpenRouter's `message.images`), as `ChatOpenAI` gives them: `additional_kwargs.audio`
// (`{id, data, transcript, expires_at}`, the pieces joined) and, by invoke, image blocks after the
// text's block; a stream's chunks keep string content, its last chunk carrying the image blocks in
// `additional_kwargs.images`; the audio's id goes back in history (`audio: {id}`).
import {
  chatsAnsweredBy,
  choiceZeroChunk as chunk,
  emulate,
  oneMessageAnswer,
  type ScriptedChatBody,
  streamedAnswer,
} from '@infergate/emulator/testing';
import { type AIMessage, type AIMessageChunk, HumanMessage } from '@langchain/core/messages';
import { describe, expect, it } from 'vitest';
import { GatewayChatModel } from '../src/index';

const MODEL = 'community/general';
const audio = {
  id: 'audio_1',
  data: 'UklGRiQAAABXQVZF',
  transcript: 'Hello there',
  expires_at: 1900000000,
};
const url = 'data:image/png;base64,iVBORw0KGgo=';
const images = [{ type: 'image_url', image_url: { url } }];

/** A model whose chats are answered with `message` whole, or `pieces` streamed; bodies kept. */
async function answering(message: Record<string, unknown>, pieces: object[]) {
  const { connection } = await emulate();
  const bodies: ScriptedChatBody[] = [];
  const fetch = chatsAnsweredBy(connection, (body) => {
    bodies.push(body);
    if (body.stream !== true) return oneMessageAnswer(body.model, message, 'stop', false);
    return streamedAnswer(body.model, [...pieces.map((delta) => chunk(delta)), chunk({}, 'stop')]);
  });
  const chat = new GatewayChatModel(MODEL, { ...connection, fetch, maxRetries: 0 });
  return { chat, bodies };
}

async function streamed(chat: GatewayChatModel): Promise<AIMessageChunk> {
  let joined: AIMessageChunk | undefined;
  for await (const piece of await chat.stream('say hi'))
    joined = joined ? joined.concat(piece) : piece;
  return joined!;
}

describe('audio the model spoke', () => {
  const pieces = [
    { role: 'assistant', audio: { id: 'audio_1', transcript: 'Hello ' } },
    { audio: { data: 'UklGRiQA', transcript: 'there' } },
    { audio: { data: 'AABXQVZF', expires_at: 1900000000 } },
  ];

  it('is additional_kwargs.audio by invoke and by stream, and its id goes back in history', async () => {
    const { chat, bodies } = await answering({ content: null, audio }, pieces);
    const whole = (await chat.invoke('say hi')) as AIMessage;
    expect(whole.additional_kwargs.audio).toEqual(audio);
    expect(whole.content).toBe('');
    const joined = await streamed(chat);
    expect(joined.additional_kwargs.audio).toEqual(audio);
    await chat.invoke([new HumanMessage('say hi'), whole, new HumanMessage('again')]);
    const sent = (bodies.at(-1)!.messages as Record<string, unknown>[])[1];
    expect(sent).toEqual({ role: 'assistant', content: '', audio: { id: 'audio_1' } });
  });
});

describe('images the model generated', () => {
  it('are image blocks after the text block by invoke; by stream, additional_kwargs.images', async () => {
    const { chat } = await answering({ content: 'Here is your cat', images }, [
      { role: 'assistant', content: 'Here is ' },
      { images },
      { content: 'your cat' },
    ]);
    const content = [
      { type: 'text', text: 'Here is your cat' },
      { type: 'image', url },
    ];
    expect((await chat.invoke('draw a cat')).content).toEqual(content);
    const joined = await streamed(chat);
    expect(joined.content).toBe('Here is your cat');
    expect(joined.additional_kwargs.images).toEqual([{ type: 'image', url }]);
  });

  it('without text: an empty text block, then the images, by invoke; by stream, additional_kwargs.images', async () => {
    const { chat } = await answering({ content: null, images }, [{ role: 'assistant', images }]);
    const content = [
      { type: 'text', text: '' },
      { type: 'image', url },
    ];
    expect((await chat.invoke('draw a cat')).content).toEqual(content);
    const joined = await streamed(chat);
    expect(joined.content).toBe('');
    expect(joined.additional_kwargs.images).toEqual([{ type: 'image', url }]);
  });
});

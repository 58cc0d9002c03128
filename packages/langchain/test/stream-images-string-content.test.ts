// A streamed answer with generated images keeps every chunk's content a string, as `ChatOpenAI`'s
// stream does: `text += chunk.content` and `StringOutputParser` read the text and do not throw; the
// last chunk carries the images in `additional_kwargs.images`. `invoke` (a streaming model's too)
// keeps them in content, after the text block.
import {
  chatsAnsweredBy,
  choiceZeroChunk as chunk,
  emulate,
  oneMessageAnswer,
  streamedAnswer,
} from '@infergate/emulator/testing';
import type { AIMessage } from '@langchain/core/messages';
import { StringOutputParser } from '@langchain/core/output_parsers';
import { describe, expect, it } from 'vitest';
import { GatewayChatModel } from '../src/index';

const MODEL = 'community/general';
const url = 'data:image/png;base64,iVBORw0KGgo=';
const images = [{ type: 'image_url', image_url: { url } }];

async function drawing(fields: { streaming?: boolean } = {}) {
  const { connection } = await emulate();
  const fetch = chatsAnsweredBy(connection, (body) =>
    body.stream !== true
      ? oneMessageAnswer(body.model, { content: 'Here is your cat', images }, 'stop', false)
      : streamedAnswer(body.model, [
          chunk({ role: 'assistant', content: 'Here is ' }),
          chunk({ images }),
          chunk({ content: 'your cat' }),
          chunk({}, 'stop'),
        ]),
  );
  return new GatewayChatModel(MODEL, { ...connection, fetch, maxRetries: 0, ...fields });
}

describe('a streamed answer with generated images', () => {
  it('StringOutputParser over stream() yields the text and does not throw', async () => {
    const chain = (await drawing()).pipe(new StringOutputParser());
    let text = '';
    for await (const piece of await chain.stream('draw a cat')) text += piece;
    expect(text).toBe('Here is your cat');
  });

  it('has string content in every chunk; the last carries additional_kwargs.images', async () => {
    const chunks = [];
    for await (const piece of await (await drawing()).stream('draw a cat')) chunks.push(piece);
    expect(chunks.map((piece) => typeof piece.content)).toEqual(chunks.map(() => 'string'));
    expect(chunks.map((piece) => piece.content).join('')).toBe('Here is your cat');
    expect(chunks.at(-1)!.additional_kwargs.images).toEqual([{ type: 'image', url }]);
  });

  it('invoke on a streaming model keeps them in content, after the text block', async () => {
    const answer = (await (await drawing({ streaming: true })).invoke('draw a cat')) as AIMessage;
    expect(answer.content).toEqual([
      { type: 'text', text: 'Here is your cat' },
      { type: 'image', url },
    ]);
    expect(answer.additional_kwargs.images).toBeUndefined();
  });
});

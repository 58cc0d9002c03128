// docs/gateway-protocol.md §4.3, §5.4: an answer whose content interleaves reasoning and text
// (Mistral's `thinking` parts: [thinking A, text B, thinking C, text D]) keeps that order in its
// content blocks, a block per piece, on invoke and on a stream's joined chunks; `content` stays
// the text joined (a string) and `reasoning_content` the reasoning joined.
import { chatCompletion, emulate } from '@infergate/emulator/testing';
import type { AIMessageChunk } from '@langchain/core/messages';
import { concat } from '@langchain/core/utils/stream';
import { describe, expect, it } from 'vitest';
import { GatewayChatModel } from '../src';
import { intercepting } from './helpers';
import {
  INTERLEAVING_MODEL,
  ORDERED,
  SPLIT_DELTAS,
  streamedAnswer,
  text,
  thinking,
} from './interleaved-pieces';

const MODEL = INTERLEAVING_MODEL;
const headers = { 'x-service-model': MODEL };

/** A model on the emulated gateway whose every chat answer is `answer(stream)`. */
async function modelAnswering(answer: (stream: boolean) => Response) {
  const gateway = await emulate();
  const connection = intercepting(gateway, async (request) => {
    if (!request.url.endsWith('/chat/completions')) return undefined;
    return answer((await request.json()).stream === true);
  });
  return new GatewayChatModel(MODEL, connection);
}

const whole = (content: unknown[]) => Response.json(chatCompletion(MODEL, content), { headers });

describe('an answer interleaving reasoning and text', () => {
  it('invoke(): contentBlocks in the order sent; content the text joined', async () => {
    const model = await modelAnswering(() =>
      whole([thinking('Think A.'), text('Say B.'), thinking('Think C.'), text('Say D.')]),
    );
    const message = await model.invoke('hi');
    expect(message.contentBlocks).toEqual(ORDERED);
    expect(message.content).toBe('Say B.Say D.');
    expect(message.additional_kwargs.reasoning_content).toBe('Think A.Think C.');
  });

  it('stream(): the joined chunks give the same blocks, pieces split across chunks', async () => {
    const model = await modelAnswering(() => streamedAnswer(SPLIT_DELTAS));
    let joined: AIMessageChunk | undefined;
    for await (const chunk of await model.stream('hi')) {
      joined = joined ? concat(joined, chunk) : chunk;
    }
    expect(joined?.contentBlocks).toEqual(ORDERED);
    expect(joined?.content).toBe('Say B.Say D.');
    expect(joined?.additional_kwargs.reasoning_content).toBe('Think A.Think C.');
  });

  it('reasoning then text (the common case) keeps its blocks and a string content', async () => {
    const model = await modelAnswering(() => whole([thinking('Think A.'), text('Say B.')]));
    const message = await model.invoke('hi');
    expect(message.contentBlocks).toEqual(ORDERED.slice(0, 2));
    expect(message.content).toBe('Say B.');
    expect(message.additional_kwargs).not.toHaveProperty('interleaved_content');
  });
});

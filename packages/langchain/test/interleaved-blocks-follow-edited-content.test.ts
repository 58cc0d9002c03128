// docs/gateway-protocol.md §5.4: an answer interleaving reasoning and text keeps its order in
// `contentBlocks` only while the message still holds that text and reasoning: a copy whose
// `content` was edited (a card number redacted) shows the edited text, never the original.
import { emulate } from '@infergate/emulator/testing';
import { AIMessage } from '@langchain/core/messages';
import { describe, expect, it } from 'vitest';
import { GatewayChatModel } from '../src';
import { intercepting } from './helpers';
import { INTERLEAVING_MODEL, text, thinking } from './interleaved-pieces';

const MODEL = INTERLEAVING_MODEL;

async function interleavingModel() {
  const gateway = await emulate();
  const connection = intercepting(gateway, async (request) => {
    if (!request.url.endsWith('/chat/completions')) return undefined;
    const content = [thinking('Think.'), text('Card 4111-1111-1111-1111.'), thinking('More.')];
    return Response.json(
      {
        id: 'c1',
        object: 'chat.completion',
        model: MODEL,
        choices: [
          {
            index: 0,
            message: { role: 'assistant', content: [...content, text(' Done.')] },
            finish_reason: 'stop',
          },
        ],
      },
      { headers: { 'x-service-model': MODEL } },
    );
  });
  return new GatewayChatModel(MODEL, connection);
}

describe('contentBlocks of an interleaved answer whose content was edited', () => {
  it('a copy with redacted content shows the redacted text, not the original', async () => {
    const message = await (await interleavingModel()).invoke('hi');
    const redacted = (message.content as string).replace(/\d{4}(-\d{4}){3}/, '[REDACTED]');
    const edited = new AIMessage({ ...message, content: redacted });
    const shown = edited.contentBlocks
      .filter((block) => block.type === 'text')
      .map((block) => block.text)
      .join('');
    expect(shown).toBe('Card [REDACTED]. Done.');
    expect(JSON.stringify(edited.contentBlocks)).not.toContain('4111');
  });

  it('the unedited answer keeps its interleaved order', async () => {
    const message = await (await interleavingModel()).invoke('hi');
    expect(message.contentBlocks.map((block) => block.type)).toEqual([
      'reasoning',
      'text',
      'reasoning',
      'text',
    ]);
  });
});

import { HumanMessage } from '@langchain/core/messages';
import { describe, expect, it } from 'vitest';
import { GatewayChatModel } from '../src/index';
import { recordingGateway } from './helpers';

const PNG = 'iVBORw0KGgo=';

describe("GatewayChatModel: Anthropic's content blocks in a user message", () => {
  it('sends an image or document given by `source` as its chat part (as LangChain reads it)', async () => {
    const { bodies, connection } = await recordingGateway();
    const model = new GatewayChatModel('community/general', connection);
    await model.invoke([
      new HumanMessage({
        content: [
          { type: 'text', text: 'compare' },
          { type: 'image', source: { type: 'base64', media_type: 'image/png', data: PNG } },
          { type: 'image', source: { type: 'url', url: 'https://example.test/a.png' } },
          {
            type: 'document',
            source: { type: 'base64', media_type: 'application/pdf', data: 'JVBERi0=' },
            title: 'a.pdf',
          },
          { type: 'document', source: { type: 'text', media_type: 'text/plain', data: 'notes' } },
        ],
      }),
    ]);
    expect(bodies[0]?.messages).toEqual([
      {
        role: 'user',
        content: [
          { type: 'text', text: 'compare' },
          { type: 'image_url', image_url: { url: `data:image/png;base64,${PNG}` } },
          { type: 'image_url', image_url: { url: 'https://example.test/a.png' } },
          {
            type: 'file',
            file: { file_data: 'data:application/pdf;base64,JVBERi0=', filename: 'a.pdf' },
          },
          { type: 'text', text: 'notes' },
        ],
      },
    ]);
  });

  it('refuses a document by URL saying to give its data, naming the block as written', async () => {
    const { emulator, connection } = await recordingGateway();
    const model = new GatewayChatModel('community/general', connection);
    const message = new HumanMessage({
      content: [{ type: 'document', source: { type: 'url', url: 'https://example.test/a.pdf' } }],
    });
    await expect(model.invoke([message])).rejects.toThrow(
      /"document" block by URL has no chat part: give its data/,
    );
    expect(emulator.counters.requests.chat).toBe(0);
  });
});

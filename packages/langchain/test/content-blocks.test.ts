import { AIMessage, HumanMessage, SystemMessage, ToolMessage } from '@langchain/core/messages';
import { describe, expect, it } from 'vitest';
import { GatewayChatModel } from '../src/index';
import { chunksOf, recordingGateway } from './helpers';

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

  it('sends an image, video or audio block given only by file id as a file part (as the AI SDK does)', async () => {
    const { bodies, connection } = await recordingGateway();
    const model = new GatewayChatModel('community/general', connection);
    await model.invoke([
      new HumanMessage({
        content: [
          { type: 'text', text: 'compare' },
          { type: 'image', fileId: 'file-img' },
          { type: 'image', source: { type: 'file', file_id: 'file-anthropic' } },
          { type: 'video', fileId: 'file-vid' },
          { type: 'audio', source_type: 'id', id: 'file-aud' },
        ],
      }),
    ]);
    expect(bodies[0]?.messages).toEqual([
      {
        role: 'user',
        content: [
          { type: 'text', text: 'compare' },
          { type: 'file', file: { file_id: 'file-img' } },
          { type: 'file', file: { file_id: 'file-anthropic' } },
          { type: 'file', file: { file_id: 'file-vid' } },
          { type: 'file', file: { file_id: 'file-aud' } },
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

  it('sends tool_result blocks as tool messages answering the tool_use calls, and drops tool_use', async () => {
    const { bodies, connection } = await recordingGateway();
    const model = new GatewayChatModel('community/general', connection);
    await chunksOf(
      model.stream([
        new HumanMessage({
          content: [
            { type: 'text', text: 'weather in Kyiv?' },
            { type: 'tool_use', id: 'toolu_0', name: 'weather', input: { city: 'Lviv' } },
          ],
        }),
        new AIMessage({
          content: [{ type: 'tool_use', id: 'toolu_1', name: 'weather', input: { city: 'Kyiv' } }],
        }),
        new HumanMessage({
          content: [
            { type: 'tool_result', tool_use_id: 'toolu_1', content: 'sunny' },
            {
              type: 'tool_result',
              tool_use_id: 'toolu_2',
              content: [
                { type: 'text', text: 'map: ' },
                { type: 'image', source: { type: 'base64', media_type: 'image/png', data: PNG } },
              ],
            },
            { type: 'text', text: 'and tomorrow?' },
          ],
        }),
      ]),
    );
    expect(bodies[0]?.messages).toEqual([
      { role: 'user', content: [{ type: 'text', text: 'weather in Kyiv?' }] },
      {
        role: 'assistant',
        content: null,
        tool_calls: [
          {
            id: 'toolu_1',
            type: 'function',
            function: { name: 'weather', arguments: '{"city":"Kyiv"}' },
          },
        ],
      },
      { role: 'tool', tool_call_id: 'toolu_1', content: 'sunny', name: 'weather' },
      {
        role: 'tool',
        tool_call_id: 'toolu_2',
        content: [
          { type: 'text', text: 'map: ' },
          { type: 'image_url', image_url: { url: `data:image/png;base64,${PNG}` } },
        ],
      },
      { role: 'user', content: [{ type: 'text', text: 'and tomorrow?' }] },
    ]);
  });

  it('a user message of tool results only becomes tool messages alone; text-only models too', async () => {
    const { bodies, connection } = await recordingGateway<{ messages: unknown[] }>();
    const model = new GatewayChatModel('community/general', {
      ...connection,
      acceptsContentParts: false,
    });
    await model.invoke([
      new HumanMessage({
        content: [
          { type: 'text', text: 'weather?' },
          { type: 'tool_use', id: 'c0', name: 'weather', input: {} },
        ],
      }),
      new AIMessage({
        content: '',
        tool_calls: [{ id: 'c1', name: 'weather', args: { city: 'Kyiv' }, type: 'tool_call' }],
      }),
      new HumanMessage({
        content: [
          {
            type: 'tool_result',
            tool_use_id: 'c1',
            content: [{ type: 'text', text: 'sunny' }],
            is_error: false,
          },
        ],
      }),
    ]);
    expect(bodies[0]?.messages.at(-1)).toEqual({
      role: 'tool',
      tool_call_id: 'c1',
      content: 'sunny',
      name: 'weather',
    });
    expect(bodies[0]?.messages).toHaveLength(3);
    expect(bodies[0]?.messages[0]).toEqual({ role: 'user', content: 'weather?' });
  });
});

describe('GatewayChatModel: prompt-cache marks on text parts', () => {
  it('keeps cache_control and prompt_cache_breakpoint on text parts of every role, no other extra field', async () => {
    const { bodies, connection } = await recordingGateway();
    const model = new GatewayChatModel('community/general', connection);
    const ephemeral = { type: 'ephemeral' };
    await model.invoke([
      new SystemMessage({
        content: [
          { type: 'text', text: 'long rules', cache_control: ephemeral },
          { type: 'text', text: 'more' },
        ],
      }),
      new HumanMessage({
        content: [
          { type: 'text', text: 'doc', cache_control: ephemeral, annotations: [], id: 'b1' },
          { type: 'text', text: 'q', extras: { prompt_cache_breakpoint: { mode: 'explicit' } } },
        ],
      }),
      new AIMessage({
        content: '',
        tool_calls: [{ id: 'c1', name: 'weather', args: {}, type: 'tool_call' }],
      }),
      new ToolMessage({
        tool_call_id: 'c1',
        content: [{ type: 'text', text: 'sunny', cache_control: ephemeral }],
      }),
      new AIMessage({
        content: [{ type: 'text', text: 'It is sunny.', cache_control: ephemeral }],
      }),
      new SystemMessage({
        content: [
          { type: 'text', text: 'a' },
          { type: 'text', text: 'b' },
        ],
      }),
    ]);
    expect(bodies[0]?.messages).toEqual([
      {
        role: 'system',
        content: [
          { type: 'text', text: 'long rules', cache_control: ephemeral },
          { type: 'text', text: 'more' },
        ],
      },
      {
        role: 'user',
        content: [
          { type: 'text', text: 'doc', cache_control: ephemeral },
          { type: 'text', text: 'q', prompt_cache_breakpoint: { mode: 'explicit' } },
        ],
      },
      {
        role: 'assistant',
        content: null,
        tool_calls: [
          { id: 'c1', type: 'function', function: { name: 'weather', arguments: '{}' } },
        ],
      },
      {
        role: 'tool',
        tool_call_id: 'c1',
        content: [{ type: 'text', text: 'sunny', cache_control: ephemeral }],
      },
      {
        role: 'assistant',
        content: [{ type: 'text', text: 'It is sunny.', cache_control: ephemeral }],
      },
      // Without a mark, text parts are still joined into one string, a line apart.
      { role: 'system', content: 'a\nb' },
    ]);
  });
});

describe('GatewayChatModel: image detail, video and data URLs in standard blocks', () => {
  it("sends an image's metadata.detail on image_url, a video as video_url, and data given as a data URL once", async () => {
    const { bodies, connection } = await recordingGateway();
    const model = new GatewayChatModel('community/general', connection);
    await model.invoke([
      new HumanMessage({
        content: [
          { type: 'text', text: 'read the small print' },
          {
            type: 'image',
            source_type: 'url',
            url: 'https://example.test/a.png',
            metadata: { detail: 'high' },
          },
          { type: 'image', data: `data:image/png;base64,${PNG}` },
        ],
      }),
      new HumanMessage({
        contentBlocks: [
          { type: 'video', data: 'AAAAGGZ0eXA=', mimeType: 'video/mp4' },
          { type: 'video', url: 'https://example.test/v.mp4' },
        ],
      }),
    ]);
    expect(bodies[0]?.messages).toEqual([
      {
        role: 'user',
        content: [
          { type: 'text', text: 'read the small print' },
          { type: 'image_url', image_url: { url: 'https://example.test/a.png', detail: 'high' } },
          { type: 'image_url', image_url: { url: `data:image/png;base64,${PNG}` } },
        ],
      },
      {
        role: 'user',
        content: [
          { type: 'video_url', video_url: { url: 'data:video/mp4;base64,AAAAGGZ0eXA=' } },
          { type: 'video_url', video_url: { url: 'https://example.test/v.mp4' } },
        ],
      },
    ]);
  });
});

describe('GatewayChatModel: a block whose mimeType names only the kind, with a typed data URL', () => {
  it("sends the data URL's own type (`image`, `video` name none), not the bytes' guess", async () => {
    const { bodies, connection } = await recordingGateway();
    const model = new GatewayChatModel('community/general', connection);
    await model.invoke([
      new HumanMessage({
        content: [
          { type: 'image', mimeType: 'image', data: 'data:image/png;base64,AAAA' },
          { type: 'video', mime_type: 'video/*', url: 'data:video/webm;base64,AAAA' },
          { type: 'image', mimeType: 'image/gif', url: 'data:image/png;base64,AAAA' },
        ] as never,
      }),
    ]);
    expect(bodies[0]?.messages).toEqual([
      {
        role: 'user',
        content: [
          { type: 'image_url', image_url: { url: 'data:image/png;base64,AAAA' } },
          { type: 'video_url', video_url: { url: 'data:video/webm;base64,AAAA' } },
          // A full mimeType is the block's own word: kept.
          { type: 'image_url', image_url: { url: 'data:image/gif;base64,AAAA' } },
        ],
      },
    ]);
  });
});

describe('GatewayChatModel: a video block without mimeType', () => {
  // LangChain's types ask for `mimeType` with data; JavaScript callers (and loose data) leave it out.
  const untypedVideo = (...data: string[]) =>
    new HumanMessage({ contentBlocks: data.map((d) => ({ type: 'video', data: d })) as never });

  it('gets its type from its first bytes (MP4, WebM)', async () => {
    const { bodies, connection } = await recordingGateway();
    const model = new GatewayChatModel('community/general', connection);
    await model.invoke([untypedVideo('AAAAGGZ0eXBtcDQy', 'GkXfo59ChoE=')]);
    expect(bodies[0]?.messages).toEqual([
      {
        role: 'user',
        content: [
          { type: 'video_url', video_url: { url: 'data:video/mp4;base64,AAAAGGZ0eXBtcDQy' } },
          { type: 'video_url', video_url: { url: 'data:video/webm;base64,GkXfo59ChoE=' } },
        ],
      },
    ]);
  });

  it('given as a data URL in `url`, is typed as one in `data` is (its own type, else its bytes)', async () => {
    const { bodies, connection } = await recordingGateway();
    const model = new GatewayChatModel('community/general', connection);
    const inUrl = (url: string) => ({ type: 'video', url });
    await model.invoke([
      new HumanMessage({
        content: [
          inUrl('data:video;base64,AAAAGGZ0eXBtcDQy'),
          inUrl('data:video/webm;base64,GkXfo59ChoE='),
          inUrl('data:video;base64,UklGRiQAAABBVkkgTElTVA=='),
        ] as never,
      }),
    ]);
    expect(bodies[0]?.messages).toEqual([
      {
        role: 'user',
        content: [
          { type: 'video_url', video_url: { url: 'data:video/mp4;base64,AAAAGGZ0eXBtcDQy' } },
          { type: 'video_url', video_url: { url: 'data:video/webm;base64,GkXfo59ChoE=' } },
          {
            type: 'video_url',
            video_url: { url: 'data:video/x-msvideo;base64,UklGRiQAAABBVkkgTElTVA==' },
          },
        ],
      },
    ]);
    const unknown = new HumanMessage({
      content: [{ type: 'video', url: 'data:video;base64,AAAAAAAAAAAA' }] as never,
    });
    await expect(model.invoke([unknown])).rejects.toMatchObject({
      code: 'invalid_request_error',
      field: 'mimeType',
    });
    expect(bodies).toHaveLength(1);
  });

  it('is refused before anything is sent when its bytes name no type, naming mimeType', async () => {
    const { bodies, connection } = await recordingGateway();
    const model = new GatewayChatModel('community/general', connection);
    await expect(model.invoke([untypedVideo('AAAAAAAAAAAA')])).rejects.toMatchObject({
      code: 'invalid_request_error',
      field: 'mimeType',
      message: expect.stringContaining('"video/mp4"'),
    });
    expect(bodies).toEqual([]);
  });
});

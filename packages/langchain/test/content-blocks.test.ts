import {
  AIMessage,
  type BaseMessage,
  HumanMessage,
  SystemMessage,
  ToolMessage,
} from '@langchain/core/messages';
import { describe, expect, it } from 'vitest';
import { chunksOf, recordingModel } from './helpers';

const PNG = 'iVBORw0KGgo=';

/** A user message of these content blocks (any shape: the mapping reads loose blocks too). */
const userSays = (...blocks: object[]) => new HumanMessage({ content: blocks as never });

/** The messages the gateway gets for an `invoke` of `messages`. */
async function sentFor(...messages: BaseMessage[]): Promise<unknown> {
  const { bodies, model } = await recordingModel();
  await model.invoke(messages);
  return bodies[0]?.messages;
}

/** A user message of these content parts as the gateway gets it (in a list, as `messages`). */
const userOf = (...parts: object[]) => [{ role: 'user', content: parts }];
const imageUrl = (url: string) => ({ type: 'image_url', image_url: { url } });
const videoUrl = (url: string) => ({ type: 'video_url', video_url: { url } });

describe("GatewayChatModel: Anthropic's content blocks in a user message", () => {
  it('sends an image or document given by `source` as its chat part (as LangChain reads it)', async () => {
    const sent = await sentFor(
      userSays(
        { type: 'text', text: 'compare' },
        { type: 'image', source: { type: 'base64', media_type: 'image/png', data: PNG } },
        { type: 'image', source: { type: 'url', url: 'https://example.test/a.png' } },
        {
          type: 'document',
          source: { type: 'base64', media_type: 'application/pdf', data: 'JVBERi0=' },
          title: 'a.pdf',
        },
        { type: 'document', source: { type: 'text', media_type: 'text/plain', data: 'notes' } },
      ),
    );
    expect(sent).toEqual(
      userOf(
        { type: 'text', text: 'compare' },
        imageUrl(`data:image/png;base64,${PNG}`),
        imageUrl('https://example.test/a.png'),
        {
          type: 'file',
          file: { file_data: 'data:application/pdf;base64,JVBERi0=', filename: 'a.pdf' },
        },
        { type: 'text', text: 'notes' },
      ),
    );
  });

  it('sends an image, video or audio block given only by file id as a file part (as the AI SDK does)', async () => {
    const sent = await sentFor(
      userSays(
        { type: 'text', text: 'compare' },
        { type: 'image', fileId: 'file-img' },
        { type: 'image', source: { type: 'file', file_id: 'file-anthropic' } },
        { type: 'video', fileId: 'file-vid' },
        { type: 'audio', source_type: 'id', id: 'file-aud' },
      ),
    );
    const fileOf = (id: string) => ({ type: 'file', file: { file_id: id } });
    expect(sent).toEqual(
      userOf(
        { type: 'text', text: 'compare' },
        fileOf('file-img'),
        fileOf('file-anthropic'),
        fileOf('file-vid'),
        fileOf('file-aud'),
      ),
    );
  });

  it('refuses a document by URL saying to give its data, naming the block as written', async () => {
    const { emulator, model } = await recordingModel();
    const message = userSays({
      type: 'document',
      source: { type: 'url', url: 'https://example.test/a.pdf' },
    });
    await expect(model.invoke([message])).rejects.toThrow(
      /"document" block by URL has no chat part: give its data/,
    );
    expect(emulator.counters.requests.chat).toBe(0);
  });

  it('sends tool_result blocks as tool messages answering the tool_use calls, and drops tool_use', async () => {
    const { bodies, model } = await recordingModel();
    await chunksOf(
      model.stream([
        userSays(
          { type: 'text', text: 'weather in Kyiv?' },
          { type: 'tool_use', id: 'toolu_0', name: 'weather', input: { city: 'Lviv' } },
        ),
        new AIMessage({
          content: [{ type: 'tool_use', id: 'toolu_1', name: 'weather', input: { city: 'Kyiv' } }],
        }),
        userSays(
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
        ),
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
        content: [{ type: 'text', text: 'map: ' }, imageUrl(`data:image/png;base64,${PNG}`)],
      },
      { role: 'user', content: [{ type: 'text', text: 'and tomorrow?' }] },
    ]);
  });

  it('a user message of tool results only becomes tool messages alone; text-only models too', async () => {
    const { bodies, model } = await recordingModel({ acceptsContentParts: false });
    await model.invoke([
      userSays(
        { type: 'text', text: 'weather?' },
        { type: 'tool_use', id: 'c0', name: 'weather', input: {} },
      ),
      new AIMessage({
        content: '',
        tool_calls: [{ id: 'c1', name: 'weather', args: { city: 'Kyiv' }, type: 'tool_call' }],
      }),
      userSays({
        type: 'tool_result',
        tool_use_id: 'c1',
        content: [{ type: 'text', text: 'sunny' }],
        is_error: false,
      }),
    ]);
    const messages = bodies[0]?.messages as unknown[];
    expect(messages.at(-1)).toEqual({
      role: 'tool',
      tool_call_id: 'c1',
      content: 'sunny',
      name: 'weather',
    });
    expect(messages).toHaveLength(3);
    expect(messages[0]).toEqual({ role: 'user', content: 'weather?' });
  });
});

describe('GatewayChatModel: prompt-cache marks on text parts', () => {
  it('keeps cache_control and prompt_cache_breakpoint on text parts of every role, no other extra field', async () => {
    const ephemeral = { type: 'ephemeral' };
    const sent = await sentFor(
      new SystemMessage({
        content: [
          { type: 'text', text: 'long rules', cache_control: ephemeral },
          { type: 'text', text: 'more' },
        ],
      }),
      userSays(
        { type: 'text', text: 'doc', cache_control: ephemeral, annotations: [], id: 'b1' },
        { type: 'text', text: 'q', extras: { prompt_cache_breakpoint: { mode: 'explicit' } } },
      ),
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
    );
    expect(sent).toEqual([
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
    const sent = await sentFor(
      userSays(
        { type: 'text', text: 'read the small print' },
        {
          type: 'image',
          source_type: 'url',
          url: 'https://example.test/a.png',
          metadata: { detail: 'high' },
        },
        { type: 'image', data: `data:image/png;base64,${PNG}` },
      ),
      new HumanMessage({
        contentBlocks: [
          { type: 'video', data: 'AAAAGGZ0eXA=', mimeType: 'video/mp4' },
          { type: 'video', url: 'https://example.test/v.mp4' },
        ],
      }),
    );
    expect(sent).toEqual([
      ...userOf(
        { type: 'text', text: 'read the small print' },
        { type: 'image_url', image_url: { url: 'https://example.test/a.png', detail: 'high' } },
        imageUrl(`data:image/png;base64,${PNG}`),
      ),
      ...userOf(
        videoUrl('data:video/mp4;base64,AAAAGGZ0eXA='),
        videoUrl('https://example.test/v.mp4'),
      ),
    ]);
  });
});

describe('GatewayChatModel: a block whose mimeType names only the kind, with a typed data URL', () => {
  it("sends the data URL's own type (`image`, `video` name none), not the bytes' guess", async () => {
    const sent = await sentFor(
      userSays(
        { type: 'image', mimeType: 'image', data: 'data:image/png;base64,AAAA' },
        { type: 'video', mime_type: 'video/*', url: 'data:video/webm;base64,AAAA' },
        { type: 'image', mimeType: 'image/gif', url: 'data:image/png;base64,AAAA' },
      ),
    );
    expect(sent).toEqual(
      userOf(
        imageUrl('data:image/png;base64,AAAA'),
        videoUrl('data:video/webm;base64,AAAA'),
        // A full mimeType is the block's own word: kept.
        imageUrl('data:image/gif;base64,AAAA'),
      ),
    );
  });
});

describe('GatewayChatModel: a video block without mimeType', () => {
  // LangChain's types ask for `mimeType` with data; JavaScript callers (and loose data) leave it out.
  const untypedVideo = (...data: string[]) =>
    new HumanMessage({ contentBlocks: data.map((d) => ({ type: 'video', data: d })) as never });

  it('gets its type from its first bytes (MP4, WebM)', async () => {
    expect(await sentFor(untypedVideo('AAAAGGZ0eXBtcDQy', 'GkXfo59ChoE='))).toEqual(
      userOf(
        videoUrl('data:video/mp4;base64,AAAAGGZ0eXBtcDQy'),
        videoUrl('data:video/webm;base64,GkXfo59ChoE='),
      ),
    );
  });

  it('given as a data URL in `url`, is typed as one in `data` is (its own type, else its bytes)', async () => {
    const { bodies, model } = await recordingModel();
    const inUrl = (url: string) => ({ type: 'video', url });
    await model.invoke([
      userSays(
        inUrl('data:video;base64,AAAAGGZ0eXBtcDQy'),
        inUrl('data:video/webm;base64,GkXfo59ChoE='),
        inUrl('data:video;base64,UklGRiQAAABBVkkgTElTVA=='),
      ),
    ]);
    expect(bodies[0]?.messages).toEqual(
      userOf(
        videoUrl('data:video/mp4;base64,AAAAGGZ0eXBtcDQy'),
        videoUrl('data:video/webm;base64,GkXfo59ChoE='),
        videoUrl('data:video/x-msvideo;base64,UklGRiQAAABBVkkgTElTVA=='),
      ),
    );
    const unknown = userSays({ type: 'video', url: 'data:video;base64,AAAAAAAAAAAA' });
    await expect(model.invoke([unknown])).rejects.toMatchObject({
      code: 'invalid_request_error',
      field: 'mimeType',
    });
    expect(bodies).toHaveLength(1);
  });

  it('is refused before anything is sent when its bytes name no type, naming mimeType', async () => {
    const { bodies, model } = await recordingModel();
    await expect(model.invoke([untypedVideo('AAAAAAAAAAAA')])).rejects.toMatchObject({
      code: 'invalid_request_error',
      field: 'mimeType',
      message: expect.stringContaining('"video/mp4"'),
    });
    expect(bodies).toEqual([]);
  });
});

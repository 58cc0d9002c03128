import { describe, expect, it } from 'vitest';
import { encodeBase64 } from '../encoding/base64-bytes';
import { DEFAULT_IMAGE_TYPE, mediaPart } from './content-parts';

const PNG = new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 0]);
const WAV = new TextEncoder().encode('RIFF\0\0\0\0WAVEfmt ');
const WEBP = new TextEncoder().encode('RIFF\0\0\0\0WEBPVP8 ');

describe('mediaPart', () => {
  it('an image: its URL, or a data URL whose type is given, sniffed, or the default', () => {
    expect(mediaPart({ mediaType: 'image/*', url: 'https://x.test/a.png' })).toEqual({
      type: 'image_url',
      image_url: { url: 'https://x.test/a.png' },
    });
    expect(mediaPart({ mediaType: 'image/webp', data: 'AAAA' })?.image_url).toEqual({
      url: 'data:image/webp;base64,AAAA',
    });
    expect(mediaPart({ mediaType: 'image', data: encodeBase64(WEBP) })?.image_url).toEqual({
      url: `data:image/webp;base64,${encodeBase64(WEBP)}`,
    });
    expect(mediaPart({ mediaType: 'image', data: '/9j/4AAQ' })?.image_url).toEqual({
      url: 'data:image/jpeg;base64,/9j/4AAQ',
    });
    expect(mediaPart({ mediaType: 'image/*', data: encodeBase64(PNG) })?.image_url).toEqual({
      url: `data:image/png;base64,${encodeBase64(PNG)}`,
    });
    expect(mediaPart({ mediaType: 'image', data: 'AAAA' })?.image_url).toEqual({
      url: `data:${DEFAULT_IMAGE_TYPE};base64,AAAA`,
    });
    expect(mediaPart({ mediaType: 'image', data: 'not base64!' })?.image_url).toEqual({
      url: `data:${DEFAULT_IMAGE_TYPE};base64,not base64!`,
    });
  });

  it("an image's detail on image_url; a video: video_url, its URL or a data URL", () => {
    // Each given part, then what is sent for it.
    const cases = [
      [
        { mediaType: 'image/png', url: 'https://x.test/a.png', detail: 'low' },
        { type: 'image_url', image_url: { url: 'https://x.test/a.png', detail: 'low' } },
      ],
      [
        { mediaType: 'video/mp4', data: 'AAAA' },
        { type: 'video_url', video_url: { url: 'data:video/mp4;base64,AAAA' } },
      ],
      [
        { mediaType: 'video/*', url: 'https://x.test/v.mp4' },
        { type: 'video_url', video_url: { url: 'https://x.test/v.mp4' } },
      ],
    ] as const;
    for (const [given, sent] of cases) expect(mediaPart(given), given.mediaType).toEqual(sent);
  });

  it('media given only by a file id: a file part naming it; by neither data nor id: none', () => {
    // An image too: by id it is a file the gateway holds, whatever its type.
    for (const [mediaType, fileId] of [
      ['application/pdf', 'file-1'],
      ['image/png', 'file-2'],
    ]) {
      const part = mediaPart({ mediaType, fileId });
      expect(part, mediaType).toEqual({ type: 'file', file: { file_id: fileId } });
    }
    expect(mediaPart({ mediaType: 'video/mp4' })).toBeUndefined();
  });

  it('audio: input_audio with its format from the type, else wav; by URL it has no part', () => {
    expect(mediaPart({ mediaType: 'audio/mpeg', data: 'AAAA' })).toEqual({
      type: 'input_audio',
      input_audio: { data: 'AAAA', format: 'mp3' },
    });
    expect(mediaPart({ mediaType: 'audio/x-wav', data: 'AAAA' })?.input_audio).toMatchObject({
      format: 'wav',
    });
    expect(mediaPart({ mediaType: 'audio', data: encodeBase64(WAV) })?.input_audio).toEqual({
      data: encodeBase64(WAV),
      format: 'wav',
    });
    expect(mediaPart({ mediaType: 'audio/wav', url: 'https://x.test/a.wav' })).toBeUndefined();
  });

  it('any other file: a file part with a data URL and its name', () => {
    expect(
      mediaPart({ mediaType: 'application/pdf', data: 'JVBERi0=', filename: 'a.pdf' }),
    ).toEqual({
      type: 'file',
      file: { file_data: 'data:application/pdf;base64,JVBERi0=', filename: 'a.pdf' },
    });
    expect(
      mediaPart({ mediaType: 'application/pdf', url: 'https://x.test/a.pdf' }),
    ).toBeUndefined();
  });

  it('a file without a name: a placeholder from its media type (inline files need one)', () => {
    const nameOf = (mediaType: string, filename?: string) => {
      const part = mediaPart({
        mediaType,
        data: 'AAAA',
        ...(filename === undefined ? {} : { filename }),
      });
      return (part?.file as { filename?: string } | undefined)?.filename;
    };
    expect(nameOf('application/pdf')).toBe('file.pdf');
    expect(nameOf('application/PDF; x=1')).toBe('file.pdf');
    expect(nameOf('application/x-tar')).toBe('file.tar');
    expect(nameOf('application/vnd.ms-excel')).toBe('file');
    expect(nameOf('application/octet-stream')).toBe('file');
    expect(nameOf('application')).toBe('file');
    expect(nameOf('application/pdf', '')).toBe('file.pdf');
    expect(nameOf('application/pdf', 'a.pdf')).toBe('a.pdf');
  });

  it('a text file of UTF-8 bytes: a text part (its name left out); other bytes stay a file', () => {
    const utf8 = encodeBase64(new TextEncoder().encode('a,b\nž,1'));
    expect(mediaPart({ mediaType: 'text/csv', data: utf8, filename: 'a.csv' })).toEqual({
      type: 'text',
      text: 'a,b\nž,1',
    });
    expect(mediaPart({ mediaType: 'text/markdown; charset=UTF-8', data: 'IyBoaQ==' })).toEqual({
      type: 'text',
      text: '# hi',
    });
    // Latin-1 bytes (0xE9) are not UTF-8, and a charset other than UTF-8 is not read as it:
    // both go as the file they are, for the model server to read or refuse.
    const latin1 = encodeBase64(new Uint8Array([0x63, 0x61, 0x66, 0xe9]));
    expect(mediaPart({ mediaType: 'text/plain', data: latin1 })).toEqual({
      type: 'file',
      file: { file_data: `data:text/plain;base64,${latin1}`, filename: 'file.txt' },
    });
    expect(mediaPart({ mediaType: 'text/plain;charset=utf-16le', data: 'aABpAA==' })?.type).toBe(
      'file',
    );
    expect(mediaPart({ mediaType: 'text/plain', data: 'not base64!' })?.type).toBe('file');
    expect(mediaPart({ mediaType: 'text/plain', url: 'https://x.test/a.txt' })).toBeUndefined();
  });

  it('a data URL, in data or url: read as its data, typed by it unless the part names a full type', () => {
    const png = encodeBase64(PNG);
    // Its own type kept, never prefixed twice; in `url` it is data too (the part is rebuilt).
    expect(mediaPart({ data: `data:image/png;base64,${png}` })?.image_url).toEqual({
      url: `data:image/png;base64,${png}`,
    });
    expect(mediaPart({ url: 'data:audio/mpeg;base64,AAAA' })).toEqual({
      type: 'input_audio',
      input_audio: { data: 'AAAA', format: 'mp3' },
    });
    expect(mediaPart({ url: 'DATA:application/pdf;base64,JVBERi0=', filename: 'a.pdf' })).toEqual({
      type: 'file',
      file: { file_data: 'data:application/pdf;base64,JVBERi0=', filename: 'a.pdf' },
    });
    // Its parameters stay with its type: a UTF-8 text file is its text.
    expect(mediaPart({ url: 'data:text/plain;charset=utf-8;base64,aGk=' })).toEqual({
      type: 'text',
      text: 'hi',
    });
    // A part naming the data URL's bare type keeps its parameters: windows-1252 bytes that are
    // valid UTF-8 are not read as UTF-8, and the file keeps its charset.
    const cp1252 = (bytes: number[]) =>
      `data:text/plain;charset=windows-1252;base64,${encodeBase64(new Uint8Array(bytes))}`;
    for (const url of [cp1252([0xc3, 0xa9, 0x74]), cp1252([0x63, 0x61, 0x66, 0xe9])]) {
      expect(mediaPart({ mediaType: 'text/plain', url })).toEqual({
        type: 'file',
        file: { file_data: url, filename: 'file.txt' },
      });
    }
    // The part's type when full; else the data URL's; else the part's top-level one, `untypedAs`.
    expect(mediaPart({ mediaType: 'image/gif', data: 'data:image/png;base64,AAAA' })).toEqual({
      type: 'image_url',
      image_url: { url: 'data:image/gif;base64,AAAA' },
    });
    expect(mediaPart({ mediaType: 'image/*', url: 'data:image/png;base64,AAAA' })).toEqual({
      type: 'image_url',
      image_url: { url: 'data:image/png;base64,AAAA' },
    });
    expect(mediaPart({ mediaType: 'audio', data: 'data:;base64,AAAA' })?.input_audio).toEqual({
      data: 'AAAA',
      format: 'wav',
    });
    expect(mediaPart({ untypedAs: 'image', data: 'data:;base64,AAAA' })?.image_url).toEqual({
      url: `data:${DEFAULT_IMAGE_TYPE};base64,AAAA`,
    });
    expect(mediaPart({ data: 'data:;base64,JVBERi0=' })).toMatchObject({
      file: { file_data: 'data:application/octet-stream;base64,JVBERi0=' },
    });
    // A top-level type only is sniffed from the data as any untyped data is; none found: refused.
    expect(mediaPart({ url: 'data:video;base64,GkXfo59ChoE=' })).toEqual({
      type: 'video_url',
      video_url: { url: 'data:video/webm;base64,GkXfo59ChoE=' },
    });
    expect(() => mediaPart({ url: 'data:video;base64,AAAAAAAA', typeField: 'mimeType' })).toThrow(
      expect.objectContaining({ code: 'invalid_request_error', field: 'mimeType' }),
    );
    // A URL that is not a base64 data URL stays the URL it is.
    expect(mediaPart({ mediaType: 'image', url: 'data:image/svg+xml,%3Csvg%3E' })).toEqual({
      type: 'image_url',
      image_url: { url: 'data:image/svg+xml,%3Csvg%3E' },
    });
  });
});

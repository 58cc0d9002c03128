import { describe, expect, it } from 'vitest';
import { createEmulator } from '../src/index';
import { call, errorBodyOf } from './helpers';

// The spec's byte limits (§8) count UTF-8 bytes. A lone high surrogate is 3 of them (it is encoded
// as U+FFFD, as TextEncoder and core's utf8ByteLength count it): the emulator counted it as half
// of a pair, 4 bytes, and skipped the character after it, so it let inputs over the limit through.

const bytes = (text: string) => new TextEncoder().encode(text).length;

describe('UTF-8 byte limits with lone surrogates', () => {
  it('a translation input of 4200 bytes (a lone high surrogate before each 中) is refused with its size', async () => {
    const input = '\uD800中'.repeat(700);
    expect(bytes(input)).toBe(4200);
    const response = await call(createEmulator(), '/translations', {
      body: { input, target_language: 'en' },
    });
    expect(await errorBodyOf(response)).toMatchObject({
      status: 400,
      param: 'input',
      message: '`input` is 4200 bytes in UTF-8; the limit is 4096 bytes',
    });
  });

  it('counts each kind as TextEncoder does: pairs 4, lone high or low surrogates 3', async () => {
    const emulator = createEmulator();
    for (const piece of ['\uD800中', '\uDC00a', '😀', 'a\uD800', '\uDBFF\uDBFF\uDFFF']) {
      const input = piece.repeat(Math.ceil(4097 / bytes(piece)));
      const response = await call(emulator, '/translations', {
        body: { input, target_language: 'en' },
      });
      expect((await errorBodyOf(response)).message).toBe(
        `\`input\` is ${bytes(input)} bytes in UTF-8; the limit is 4096 bytes`,
      );
    }
  });

  it('an embeddings input over 65536 bytes in total is refused', async () => {
    const input = '\uD800中'.repeat(11_000);
    expect(bytes(input)).toBe(66_000);
    const response = await call(createEmulator(), '/embeddings', {
      body: { model: 'all-minilm-l6-v2', input },
    });
    expect(await errorBodyOf(response)).toMatchObject({
      status: 400,
      message: '`input` is 66000 bytes in UTF-8 in total; the limit is 65536 bytes',
    });
  });
});

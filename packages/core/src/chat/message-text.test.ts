import { describe, expect, it } from 'vitest';
import { messageText } from './message-text';

describe('messageText', () => {
  it('reads a string, joins text parts and ignores the rest', () => {
    expect(messageText('hello')).toBe('hello');
    expect(
      messageText([
        { type: 'text', text: 'a' },
        { type: 'image_url', image_url: { url: 'x' } },
        { type: 'text', text: 'b' },
      ]),
    ).toBe('ab');
    expect(messageText(null)).toBe('');
    expect(messageText(undefined)).toBe('');
  });
});

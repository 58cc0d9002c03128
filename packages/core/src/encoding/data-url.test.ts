import { describe, expect, it } from 'vitest';
import { normaliseBase64 } from './base64';
import { readDataUrl } from './data-url';

describe('readDataUrl', () => {
  it('reads a base64 data URL as its type (parameters kept, empty when none) and its data', () => {
    expect(readDataUrl('data:image/png;base64,iVBORw0KGgo=')).toEqual({
      mediaType: 'image/png',
      data: 'iVBORw0KGgo=',
    });
    expect(readDataUrl('Data:text/plain;charset=utf-8;BASE64,aGk=')).toEqual({
      mediaType: 'text/plain;charset=utf-8',
      data: 'aGk=',
    });
    expect(readDataUrl('data:;base64,AAAA')).toEqual({ mediaType: '', data: 'AAAA' });
  });

  it('reads no other text: plain base64, a URL, a data URL not in base64', () => {
    expect(readDataUrl('iVBORw0KGgo=')).toBeUndefined();
    expect(readDataUrl('https://x.test/data:image/png;base64,AAAA')).toBeUndefined();
    expect(readDataUrl('data:image/svg+xml,%3Csvg%3E')).toBeUndefined();
    expect(readDataUrl('')).toBeUndefined();
  });

  it('is the prefix normaliseBase64 removes', () => {
    expect(normaliseBase64('image', 'data:image/png;base64,AAA').text).toBe('AAA=');
  });
});

import { describe, expect, it } from 'vitest';
import { answeringModel } from './answering-model';

const headers = (model?: string) =>
  new Headers(model === undefined ? {} : { 'X-Service-Model': model });

describe('answeringModel', () => {
  it.each([
    ['the header first', headers('pool/b'), 'pool/c', 'pool/b'],
    ['else the body', headers(), 'pool/c', 'pool/c'],
    ['else the requested model', headers(), undefined, 'a/requested'],
    ['an empty header or body model names none', headers(''), '', 'a/requested'],
    ['a body model that is not a string names none', headers(), 42, 'a/requested'],
    ['without headers, the body', undefined, 'pool/c', 'pool/c'],
  ])('%s', (_name, given, bodyModel, served) => {
    expect(answeringModel(given, bodyModel, 'a/requested')).toBe(served);
  });

  it('is unknown while only the header could name it and does not', () => {
    expect(answeringModel(headers(), undefined, undefined)).toBeUndefined();
    expect(answeringModel(headers('pool/b'), undefined, undefined)).toBe('pool/b');
  });
});

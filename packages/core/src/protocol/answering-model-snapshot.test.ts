import { describe, expect, it } from 'vitest';
import { answeringModel } from './answering-model';

const none = new Headers();

describe('answeringModel: a snapshot of the requested model (no X-Service-Model)', () => {
  it.each([
    ['a date', 'm/x-2025-01-01'],
    ['a compact date', 'm/x-20241022'],
    ['a build number', 'm/x-0613'],
    ['an @ date', 'm/x@20241022'],
    ['a tag', 'm/x:latest'],
    ['the bare name (no namespace) with a date', 'x-2025-01-01'],
    ['the bare name', 'x'],
  ])('%s (%s) answers as the requested m/x', (_name, body) => {
    expect(answeringModel(none, body, 'm/x')).toBe('m/x');
  });

  // Another model: the body's name stands.
  it.each([
    ['another model', 'pool/y'],
    ['a longer name', 'm/xl'],
    ['a variant, not a snapshot', 'm/x-turbo'],
    ['another namespace', 'n/x-2025-01-01'],
  ])('%s (%s) answers as itself', (_name, body) => {
    expect(answeringModel(none, body, 'm/x')).toBe(body);
  });

  it('the header wins over any body model', () => {
    const headed = new Headers({ 'X-Service-Model': 'pool/b' });
    expect(answeringModel(headed, 'm/x-2025-01-01', 'm/x')).toBe('pool/b');
  });
});

import { describe, expect, it } from 'vitest';
import { answeringModel } from './answering-model';

const none = new Headers();

describe('answeringModel: a snapshot of the requested model (no X-Service-Model)', () => {
  it.each([
    ['a date', 'm/x-2025-01-01', 'm/x'],
    ['a compact date', 'm/x-20241022', 'm/x'],
    ['a build number', 'm/x-0613', 'm/x'],
    ['an @ date', 'm/x@20241022', 'm/x'],
    ['a tag', 'm/x:latest', 'm/x'],
    ['the bare name (no namespace) with a date', 'x-2025-01-01', 'm/x'],
    ['the bare name', 'x', 'm/x'],
    // Another model: the body's name stands.
    ['another model', 'pool/y', 'pool/y'],
    ['a longer name', 'm/xl', 'm/xl'],
    ['a variant, not a snapshot', 'm/x-turbo', 'm/x-turbo'],
    ['another namespace', 'n/x-2025-01-01', 'n/x-2025-01-01'],
  ])('%s (%s) answers as %s', (_name, body, served) => {
    expect(answeringModel(none, body, 'm/x')).toBe(served);
  });

  it('the header wins over any body model', () => {
    const headed = new Headers({ 'X-Service-Model': 'pool/b' });
    expect(answeringModel(headed, 'm/x-2025-01-01', 'm/x')).toBe('pool/b');
  });
});

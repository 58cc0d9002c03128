import { describe, expect, it } from 'vitest';
import { mapFinishReason } from './map-finish-reason';

describe('mapFinishReason', () => {
  it.each([
    ['stop', 'stop'],
    ['length', 'length'],
    ['max_tokens', 'length'],
    ['tool_calls', 'tool_use'],
    ['function_call', 'tool_use'],
    ['tool_use', 'tool_use'],
    ['content_filter', 'content_filter'],
    ['something_new', 'stop'],
  ])('%s → %s', (reason, mapped) => {
    expect(mapFinishReason(reason)).toBe(mapped);
  });

  it('no reason ends as a stop', () => {
    expect(mapFinishReason(undefined)).toBe('stop');
  });
});

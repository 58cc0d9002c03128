import { describe, expect, it } from 'vitest';
import { classifyFinishReason } from './classify-finish-reason';

describe('classifyFinishReason', () => {
  it.each([
    ['stop', 'stop'],
    ['end_turn', 'stop'],
    ['stop_sequence', 'stop'],
    ['length', 'length'],
    ['max_tokens', 'length'],
    ['tool_calls', 'tool_calls'],
    ['function_call', 'tool_calls'],
    ['tool_use', 'tool_calls'],
    ['content_filter', 'content_filter'],
    ['error', 'error'],
    ['something_new', 'other'],
    ['toString', 'other'],
  ])('%s is %s', (reason, kind) => {
    expect(classifyFinishReason(reason)).toBe(kind);
  });

  it('no reason is other', () => {
    expect(classifyFinishReason(null)).toBe('other');
    expect(classifyFinishReason(undefined)).toBe('other');
  });
});

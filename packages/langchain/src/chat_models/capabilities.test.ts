import { describe, expect, it } from 'vitest';
import { defaultStructuredOutputMethod, profileFromCapabilities } from './capabilities';

describe('capabilities', () => {
  it('picks json_schema, then tools, then json_object', () => {
    expect(defaultStructuredOutputMethod(['chat', 'json_object', 'tools', 'json_schema'])).toBe(
      'jsonSchema',
    );
    expect(defaultStructuredOutputMethod(['chat', 'json_object', 'tools'])).toBe('functionCalling');
    expect(defaultStructuredOutputMethod(['chat', 'json_object'])).toBe('jsonMode');
    expect(defaultStructuredOutputMethod(['chat'])).toBeUndefined();
  });

  it('maps capabilities to a LangChain profile', () => {
    expect(profileFromCapabilities(undefined, false)).toEqual({});
    expect(profileFromCapabilities(['chat', 'tools'], false)).toEqual({
      toolCalling: true,
      toolChoice: true,
      structuredOutput: false,
      imageInputs: false,
    });
    expect(profileFromCapabilities(['chat', 'json_schema'], true)).toMatchObject({
      toolCalling: false,
      structuredOutput: true,
      imageInputs: true,
    });
  });
});

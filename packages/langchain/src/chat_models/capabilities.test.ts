import { describe, expect, it } from 'vitest';
import { profileFromCapabilities } from './capabilities';

describe('capabilities', () => {
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
    });
    expect(profileFromCapabilities(['chat', 'json_schema'], true)).not.toHaveProperty(
      'imageInputs',
    );
  });
});

import { isGatewayError } from '@infergate/core';
import { describe, expect, it } from 'vitest';
import {
  assertAnyCapability,
  assertCapabilities,
  defaultStructuredOutputMethod,
  profileFromCapabilities,
} from './capabilities';

const catalog = [
  {
    id: 'a/all',
    object: 'model' as const,
    owned_by: 'x',
    kind: 'chat',
    capabilities: ['chat', 'streaming', 'tools', 'json_schema'],
  },
  {
    id: 'a/tools',
    object: 'model' as const,
    owned_by: 'x',
    kind: 'chat',
    capabilities: ['chat', 'tools'],
  },
  { id: 'a/plain', object: 'model' as const, owned_by: 'x', kind: 'chat', capabilities: ['chat'] },
];

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

  it('refuses naming model, capability and the models that have it', () => {
    let caught: unknown;
    try {
      assertCapabilities(
        { model: 'a/plain', capabilities: ['chat'], catalog },
        ['tools'],
        'bindTools',
      );
    } catch (error) {
      caught = error;
    }
    expect(isGatewayError(caught) && caught.code).toBe('unsupported_model_capability');
    expect(isGatewayError(caught) && caught.alternatives).toEqual(['a/all', 'a/tools']);
    expect((caught as Error).message).toBe(
      'Model "a/plain" lacks tools, needed for bindTools (it has: chat). Models with tools: a/all, a/tools.',
    );
    expect(() =>
      assertCapabilities(
        { model: 'a/plain', capabilities: ['chat'] },
        ['streaming'],
        'streaming: true',
      ),
    ).toThrow(/model list was not loaded/);
    expect(() =>
      assertAnyCapability(
        { model: 'a/plain', capabilities: ['chat'], catalog },
        ['json_schema', 'tools'],
        'x',
      ),
    ).toThrow(/a\/all, a\/tools/);
    expect(() =>
      assertCapabilities(
        { model: 'a/all', capabilities: catalog[0]!.capabilities },
        ['tools'],
        'x',
      ),
    ).not.toThrow();
  });
});

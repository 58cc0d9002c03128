import { describe, expect, it } from 'vitest';
import { isGatewayError } from '../errors/errors';
import type { GatewayModel } from '../protocol/wire-types';
import {
  capabilitiesOf,
  capabilityError,
  checkCapabilities,
  describeNeeds,
  missingCapabilities,
  modelsWithCapabilities,
} from './model-capabilities';

const model = (id: string, capabilities: string[]): GatewayModel => ({
  id,
  object: 'model',
  owned_by: 'service-community',
  kind: 'chat',
  capabilities,
});

const catalog = [
  model('a/all', ['chat', 'streaming', 'tools', 'json_object', 'json_schema']),
  model('a/tools', ['chat', 'tools']),
  model('a/object', ['chat', 'json_object']),
  model('a/plain', ['chat']),
];

describe('capability comparison', () => {
  it('lists what is missing, in the order of the needs', () => {
    expect(missingCapabilities(['chat', 'streaming'], ['chat', 'json_schema', 'tools'])).toEqual([
      'json_schema',
      'tools',
    ]);
    expect(missingCapabilities(['chat', 'tools'], ['chat', 'tools'])).toEqual([]);
  });

  it('finds the models with every need, or with any one of them', () => {
    expect(modelsWithCapabilities(catalog, ['chat', 'tools'])).toEqual(['a/all', 'a/tools']);
    expect(
      modelsWithCapabilities(catalog, ['json_schema', 'json_object'], { anyOf: true }),
    ).toEqual(['a/all', 'a/object']);
  });

  it('reads an entry without a capabilities array as unknown (not none): such a model passes', () => {
    expect(capabilitiesOf({ capabilities: undefined as unknown as string[] })).toBeUndefined();
    expect(capabilitiesOf({ capabilities: null as unknown as string[] })).toBeUndefined();
    const unknown = { model: 'a/m', needs: ['chat', 'tools'] as const, capabilities: undefined };
    expect(() => checkCapabilities({ ...unknown, needs: [...unknown.needs] })).not.toThrow();
    expect(missingCapabilities(undefined, ['tools'])).toEqual([]);
    // Unknown is not "has it" either: such a model is named as an alternative for nothing.
    const listed = [{ id: 'a/m' } as GatewayModel, { id: 'b/m', capabilities: ['chat', 'tools'] }];
    expect(modelsWithCapabilities(listed as GatewayModel[], ['tools'])).toEqual(['b/m']);
  });
});

describe('capabilityError', () => {
  it('names the model, what it lacks, what it has and the models that have the needs', () => {
    const error = capabilityError({
      model: 'a/plain',
      needs: ['chat', 'tools'],
      capabilities: ['chat'],
      catalog,
      purpose: 'bindTools',
    });
    expect(error.code).toBe('unsupported_model_capability');
    expect(error.isRetryable).toBe(false);
    expect(error.model).toBe('a/plain');
    expect(error.missing).toEqual(['tools']);
    expect(error.alternatives).toEqual(['a/all', 'a/tools']);
    expect(error.message).toBe(
      'Model "a/plain" lacks tools, needed for bindTools (it has: chat). Models with chat, tools: a/all, a/tools.',
    );
  });

  it('says when the model list was not loaded, and when no model has the needs', () => {
    const unknown = capabilityError({ model: 'x/y', needs: ['streaming'], capabilities: [] });
    expect(unknown.alternatives).toBeUndefined();
    expect(unknown.message).toBe(
      'Model "x/y" lacks streaming (it has: none). The models with streaming are unknown: the model list was not loaded.',
    );
    const none = capabilityError({
      model: 'a/plain',
      needs: ['chat', 'streaming', 'json_object', 'tools'],
      capabilities: ['chat'],
      catalog: catalog.slice(1),
    });
    expect(none.alternatives).toEqual([]);
    expect(none.message).toContain('No listed model has chat, streaming, json_object, tools.');
  });

  it('with anyOf, lists the models that have one of the needs', () => {
    const error = capabilityError({
      model: 'a/plain',
      needs: ['json_schema', 'tools'],
      capabilities: ['chat'],
      catalog,
      anyOf: true,
      purpose: 'withStructuredOutput',
    });
    expect(error.missing).toEqual(['json_schema', 'tools']);
    expect(error.alternatives).toEqual(['a/all', 'a/tools']);
    expect(error.message).toContain('lacks json_schema and tools, needed for withStructuredOutput');
    expect(error.message).toContain('Models with json_schema or tools: a/all, a/tools.');
  });

  it('never names the refused model as its own alternative', () => {
    const error = capabilityError({
      model: 'a/all',
      needs: ['tools'],
      capabilities: ['chat'],
      catalog,
    });
    expect(error.alternatives).toEqual(['a/tools']);
  });
});

describe('checkCapabilities (the gate both adapters refuse through)', () => {
  const listed: GatewayModel[] = [
    {
      id: 'a/all',
      object: 'model',
      owned_by: 'x',
      kind: 'chat',
      capabilities: ['chat', 'streaming', 'tools', 'json_schema'],
    },
    {
      id: 'a/tools',
      object: 'model',
      owned_by: 'x',
      kind: 'chat',
      capabilities: ['chat', 'tools'],
    },
    { id: 'a/plain', object: 'model', owned_by: 'x', kind: 'chat', capabilities: ['chat'] },
  ];

  it('refuses naming model, capability, purpose and the models that have it', () => {
    let caught: unknown;
    try {
      checkCapabilities({
        model: 'a/plain',
        capabilities: ['chat'],
        catalog: listed,
        needs: ['tools'],
        purpose: 'bindTools',
      });
    } catch (error) {
      caught = error;
    }
    expect(isGatewayError(caught) && caught.code).toBe('unsupported_model_capability');
    expect(isGatewayError(caught) && caught.alternatives).toEqual(['a/all', 'a/tools']);
    expect((caught as Error).message).toBe(
      'Model "a/plain" lacks tools, needed for bindTools (it has: chat). Models with tools: a/all, a/tools.',
    );
  });

  it('says when the list was not loaded, reads anyOf, describes needs by default, passes when met', () => {
    expect(() =>
      checkCapabilities({ model: 'a/plain', capabilities: ['chat'], needs: ['streaming'] }),
    ).toThrow(/needed for this request \(streaming\).*model list was not loaded/);
    expect(() =>
      checkCapabilities({
        model: 'a/plain',
        capabilities: ['chat'],
        catalog: listed,
        needs: ['json_schema', 'tools'],
        anyOf: true,
      }),
    ).toThrow(/a\/all, a\/tools/);
    expect(() =>
      checkCapabilities({
        model: 'a/tools',
        capabilities: ['chat', 'tools'],
        needs: ['json_schema', 'tools'],
        anyOf: true,
      }),
    ).not.toThrow();
    expect(() =>
      checkCapabilities({ model: 'a/all', capabilities: ['chat', 'tools'], needs: ['tools'] }),
    ).not.toThrow();
    expect(describeNeeds(['chat'])).toBe('chat');
  });
});

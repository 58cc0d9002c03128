import { describe, expect, it } from 'vitest';
import type { FaultRule } from '../src/faults';
import { createEmulator, ScenarioError } from '../src/index';

// A rule whose filters no request can meet (a stream fault bound to a service endpoint, a chat-only
// fault on another endpoint, a `model` filter where the model is never read) was accepted and then
// matched nothing, silently. Now refused as other bad rules are, naming the field.

describe('a fault rule that can never match', () => {
  it.each([
    [
      { fault: 'stream_cut', endpoint: 'embeddings' },
      /endpoint: .*stream_cut acts only on streamed chat requests/,
    ],
    [
      { fault: 'model_offline', endpoint: 'translations' },
      /endpoint: .*model_offline acts only on chat requests/,
    ],
    [
      { fault: 'stall_first_chunk', endpoint: 'ocr', ms: 5000 },
      /endpoint: .*stall_first_chunk acts only on chat requests/,
    ],
    [
      { fault: 'bad_gateway', endpoint: 'translations', model: 'any-model' },
      /model: .*read only on chat and embeddings requests, not on translations/,
    ],
    [{ fault: 'rate_limit', endpoint: 'models', model: 'x' }, /model: .*not on models/],
  ] as [FaultRule, RegExp][])('is refused: %j', (rule, message) => {
    expect(() => createEmulator().injectFault(rule)).toThrow(TypeError);
    expect(() => createEmulator().injectFault(rule)).toThrow(message);
    expect(() => createEmulator({ faults: [rule] })).toThrow(ScenarioError);
    expect(() => createEmulator({ faults: [rule] })).toThrow(message);
  });

  it.each([
    { fault: 'stream_cut', endpoint: 'chat' },
    { fault: 'truncated_json', endpoint: 'chat', model: 'community/general' },
    { fault: 'bad_gateway', endpoint: 'embeddings', model: 'all-minilm-l6-v2' },
    { fault: 'model_offline', endpoint: 'chat' },
    { fault: 'bad_gateway', model: 'community/general' },
  ] as FaultRule[])('accepts one that can: %j', (rule) => {
    expect(() => createEmulator().injectFault(rule)).not.toThrow();
  });
});

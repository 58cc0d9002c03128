import { APICallError } from '@ai-sdk/provider';
import { caught, emulate } from '@infergate/emulator/testing';
import { generateText, Output, tool } from 'ai';
import { afterAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { createGateway } from '../provider/gateway-provider';
import { UnsupportedModelCapabilityError } from './unsupported-model-capability-error';

// Tools on a model without `tools` are refused the same with or without `Output.object`: the
// schema does not turn the capability refusal into a plain `APICallError` (rv-ai15 F1).
const emulated = await emulate();
afterAll(() => emulated.close());
const gateway = createGateway({ ...emulated.connection });
const tools = {
  weather: tool({ inputSchema: z.object({ city: z.string() }), execute: async () => 'sunny' }),
};
const output = Output.object({ schema: z.object({ city: z.string() }) });
const ask = (model: string, schema: boolean) =>
  generateText({
    model: gateway(model),
    tools,
    prompt: 'Weather in "Oslo"?',
    maxRetries: 0,
    ...(schema && { output }),
  });

describe('generateText with tools and Output.object, one model', () => {
  it('a model lacking tools: UnsupportedModelCapabilityError as without the schema', async () => {
    const plain = await caught(
      ask('community/json-schema', false),
      UnsupportedModelCapabilityError.isInstance,
    );
    const error = await caught(
      ask('community/json-schema', true),
      (value: unknown) => value instanceof Error,
    );
    expect(UnsupportedModelCapabilityError.isInstance(error)).toBe(true);
    const refusal = error as UnsupportedModelCapabilityError;
    expect(refusal.missing).toEqual(['tools']);
    expect(refusal.alternatives).toEqual(plain.alternatives);
    expect(refusal.message).toBe(plain.message);
    expect(emulated.counters.requests.chat ?? 0).toBe(0);
  });

  it('a model with tools and no way to serve the schema beside them: no_model_can_serve', async () => {
    const error = await caught(ask('combo/t', true), APICallError.isInstance);
    expect((error.data as { code?: string }).code).toBe('no_model_can_serve');
    expect(error.message).toContain('not tools: the request has tools of its own');
    expect(emulated.counters.requests.chat ?? 0).toBe(0);
  });
});

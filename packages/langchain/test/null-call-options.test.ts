// A call option given as `null` (as LangChain's own options and its users pass an unset value)
// is not given: the model's value applies. `structuredOutput: null` threw a raw TypeError
// (`Cannot read properties of null (reading 'methods')`) and `headers: null` was refused by core;
// both are taken now, as the steering options' `null` already was. A near miss is still refused.
import { describe, expect, it } from 'vitest';
import { chunksOf, recordingModel } from './helpers';

const NULLS = {
  structuredOutput: null,
  headers: null,
  fallbackModels: null,
  firstChunkTimeoutMs: null,
  chunkTimeoutMs: null,
  hedge: null,
  streamUsage: null,
};

/** LangChain's call options type no `null`: a JavaScript caller's pass as this. */
const options = NULLS as never;

describe('null call options are not given', () => {
  it('invoke and stream answer, sending no option', async () => {
    const { bodies, model } = await recordingModel({ maxRetries: 0 });
    expect((await model.invoke('hi', options)).content).toBe('Echo: hi');
    const chunks = await chunksOf(model.stream('hi', options));
    expect(chunks.map((chunk) => chunk.content).join('')).toBe('Echo: hi');
    expect(bodies).toHaveLength(2);
    for (const body of bodies) {
      expect(Object.values(body)).not.toContain(null);
      for (const name of Object.keys(NULLS)) expect(body).not.toHaveProperty(name);
    }
  });

  it('a near miss given as null is still refused', async () => {
    const { bodies, model } = await recordingModel({ maxRetries: 0 });
    const error = await model.invoke('hi', { fallbackModel: null } as never).catch((e) => e);
    expect((error as Error).message).toContain('did you mean `fallbackModels`?');
    expect(bodies).toEqual([]);
  });
});

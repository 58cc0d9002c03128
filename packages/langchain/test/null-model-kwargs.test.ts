// docs/gateway-protocol.md §4.1: `modelKwargs` (or a call's) giving a sampling field as `null`,
// as ChatOpenAI users do, means "not set": sent without the field (the server's default), not refused.
import { describe, expect, it } from 'vitest';
import { recordingModel } from './helpers';

const nulls = { temperature: null, top_p: null, seed: null, max_tokens: null, stop: null };

describe('null modelKwargs', () => {
  it('invoke and stream send the request without the null fields', async () => {
    const { bodies, model } = await recordingModel({ maxRetries: 0, modelKwargs: nulls });
    expect((await model.invoke('hi')).content).toBe('Echo: hi');
    for await (const _ of await model.stream('hi'));
    expect(bodies).toHaveLength(2);
    for (const body of bodies) {
      for (const name of Object.keys(nulls)) expect(body).not.toHaveProperty(name);
    }
    expect(model.invocationParams()).not.toHaveProperty('seed');
  });
});

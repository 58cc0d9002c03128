// docs/gateway-protocol.md §4.8: a schema's name outside what OpenAI-compatible servers take for a
// function or a json_schema (1 to 64 letters, digits, `_`, `-`) is sent mapped to such a name, not
// refused: `Output.object({ name: 'Movie review' })` works on a model serving the schema natively
// and on one serving it by a forced tool, whose call is read back by the mapped name.

import { emulate } from '@infergate/emulator/testing';
import { generateText, Output, streamText } from 'ai';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { z } from 'zod/v4';
import { recordingGatewayOn } from './providers';

const emulated = await emulate({ hooks: { afterEach, afterAll } });
const { bodies, gateway } = recordingGatewayOn(emulated);
const Review = z.object({ title: z.string(), stars: z.number() });
const output = Output.object({ schema: Review, name: 'Movie review', description: 'A review' });
const prompt = 'Review "Solaris" (1972).';

describe('Output.object named "Movie review"', () => {
  it('json_schema: answered, sent as response_format.json_schema.name "Movie_review"', async () => {
    const result = await generateText({
      model: gateway()('community/json-schema'),
      prompt,
      output,
    });
    expect(Review.parse(result.output)).toEqual(result.output);
    expect(bodies).toHaveLength(1);
    expect(bodies[0]?.response_format).toMatchObject({
      type: 'json_schema',
      json_schema: { name: 'Movie_review', description: 'A review' },
    });
  });

  it('tools (streamed): the forced tool is "Movie_review", its call read back', async () => {
    const result = streamText({ model: gateway()('community/tools'), prompt, output });
    expect(Review.parse(await result.output)).toEqual(await result.output);
    expect(bodies).toHaveLength(1);
    expect(bodies[0]?.tool_choice).toEqual({
      type: 'function',
      function: { name: 'Movie_review' },
    });
    expect(bodies[0]?.tools).toMatchObject([{ function: { name: 'Movie_review' } }]);
  });
});

// docs/gateway-protocol.md §4.8: a schema's name outside what OpenAI-compatible servers take for a
// function or a json_schema (1 to 64 letters, digits, `_`, `-`) is sent mapped to such a name, not
// refused: `withStructuredOutput(schema, { name: 'Movie review' })` works on a model serving the
// schema natively and on one serving it by a forced tool, whose call is read back by that name.

import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { GatewayChatModel } from '../src';
import { recordingGateway } from './helpers';

const Review = z.object({ title: z.string(), stars: z.number() });
const prompt = 'Review "Solaris" (1972).';

describe('withStructuredOutput named "Movie review"', () => {
  it.each([
    ['community/json-schema', { response_format: { json_schema: { name: 'Movie_review' } } }],
    ['community/tools', { tool_choice: { type: 'function', function: { name: 'Movie_review' } } }],
  ] as const)('%s: answered, sent named "Movie_review"', async (model, sent) => {
    const { bodies, connection } = await recordingGateway();
    const chat = new GatewayChatModel({ ...connection, model });
    const review = await chat.withStructuredOutput(Review, { name: 'Movie review' }).invoke(prompt);
    expect(Review.parse(review)).toEqual(review);
    expect(bodies).toHaveLength(1);
    expect(bodies[0]).toMatchObject(sent);
  });
});

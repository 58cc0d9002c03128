// docs/gateway-protocol.md §4.8: a schema's title names it when no config `name` does, and goes to
// core as it is: core's rule alone decides how a name is sent, so a zod schema titled "Movie
// review" is sent as `Movie_review` (not LangChain's default `extract`), on a model serving the
// schema natively and on one serving it by a forced tool, whose call is read back by that name.

import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { GatewayChatModel } from '../src';
import { recordingGateway } from './helpers';

const Review = z
  .object({ title: z.string(), stars: z.number() })
  .meta({ title: 'Movie review' })
  .describe('A short review of one film');
const prompt = 'Review "Solaris" (1972).';

describe('withStructuredOutput of a zod schema titled "Movie review"', () => {
  it.each([
    ['community/json-schema', { response_format: { json_schema: { name: 'Movie_review' } } }],
    ['community/tools', { tool_choice: { type: 'function', function: { name: 'Movie_review' } } }],
  ] as const)('%s: answered, sent named "Movie_review"', async (model, sent) => {
    const { bodies, connection } = await recordingGateway();
    const chat = new GatewayChatModel({ ...connection, model });
    const review = await chat.withStructuredOutput(Review).invoke(prompt);
    expect(Review.parse(review)).toEqual(review);
    expect(bodies).toHaveLength(1);
    expect(bodies[0]).toMatchObject(sent);
  });

  it('a blank title names nothing: sent as LangChain\'s default, "extract"', async () => {
    const { bodies, connection } = await recordingGateway();
    const chat = new GatewayChatModel({ ...connection, model: 'community/json-schema' });
    await chat.withStructuredOutput(Review.meta({ title: ' ' })).invoke(prompt);
    expect(bodies[0]).toMatchObject({ response_format: { json_schema: { name: 'extract' } } });
  });

  it('a blank config name names nothing either: the title, else "extract" (core reads blank as not given)', async () => {
    const { bodies, connection } = await recordingGateway();
    const chat = new GatewayChatModel({ ...connection, model: 'community/json-schema' });
    await chat.withStructuredOutput(Review, { name: '  ' }).invoke(prompt);
    await chat.withStructuredOutput(Review.meta({ title: '' }), { name: '' }).invoke(prompt);
    expect(bodies.map((body) => body.response_format)).toMatchObject([
      { json_schema: { name: 'Movie_review' } },
      { json_schema: { name: 'extract' } },
    ]);
  });
});

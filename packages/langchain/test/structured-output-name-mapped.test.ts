// docs/gateway-protocol.md §4.8: a schema's name outside what OpenAI-compatible servers take for a
// function or a json_schema (1 to 64 letters, digits, `_`, `-`) is sent mapped to such a name, not
// refused: `withStructuredOutput(schema, { name: 'Movie review' })` works on a model serving the
// schema natively and on one serving it by a forced tool, whose call is read back by that name.
// A schema's title names it when no config `name` does, and goes to core as it is: core's rule
// alone decides how a name is sent, so a zod schema titled "Movie review" is sent as
// `Movie_review` (not LangChain's default `extract`), on both models too.

import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { GatewayChatModel } from '../src';
import { recordingGateway } from './helpers';

const Review = z.object({ title: z.string(), stars: z.number() });
const TitledReview = Review.meta({ title: 'Movie review' }).describe('A short review of one film');
const prompt = 'Review "Solaris" (1972).';

/** Each model, and what its request names the schema: natively, or by the forced tool. */
const SENT_AS_MOVIE_REVIEW = [
  ['community/json-schema', { response_format: { json_schema: { name: 'Movie_review' } } }],
  ['community/tools', { tool_choice: { type: 'function', function: { name: 'Movie_review' } } }],
] as const;

/** On `model`: `withStructuredOutput(schema, config)` answers (a valid review) in one request, as `sent`. */
async function answeredSentAs(
  model: string,
  sent: object,
  schema: typeof Review,
  config?: { name: string },
) {
  const { bodies, connection } = await recordingGateway();
  const chat = new GatewayChatModel({ ...connection, model });
  const review = await chat.withStructuredOutput(schema, config).invoke(prompt);
  expect(schema.parse(review)).toEqual(review);
  expect(bodies).toHaveLength(1);
  expect(bodies[0]).toMatchObject(sent);
}

describe('withStructuredOutput named "Movie review"', () => {
  it.each(SENT_AS_MOVIE_REVIEW)('%s: answered, sent named "Movie_review"', (model, sent) =>
    answeredSentAs(model, sent, Review, { name: 'Movie review' }),
  );
});

describe('withStructuredOutput of a zod schema titled "Movie review"', () => {
  it.each(SENT_AS_MOVIE_REVIEW)('%s: answered, sent named "Movie_review"', (model, sent) =>
    answeredSentAs(model, sent, TitledReview),
  );

  it('a blank title names nothing: sent as LangChain\'s default, "extract"', async () => {
    const { bodies, connection } = await recordingGateway();
    const chat = new GatewayChatModel({ ...connection, model: 'community/json-schema' });
    await chat.withStructuredOutput(TitledReview.meta({ title: ' ' })).invoke(prompt);
    expect(bodies[0]).toMatchObject({ response_format: { json_schema: { name: 'extract' } } });
  });

  it('a blank config name names nothing either: the title, else "extract" (core reads blank as not given)', async () => {
    const { bodies, connection } = await recordingGateway();
    const chat = new GatewayChatModel({ ...connection, model: 'community/json-schema' });
    await chat.withStructuredOutput(TitledReview, { name: '  ' }).invoke(prompt);
    await chat.withStructuredOutput(TitledReview.meta({ title: '' }), { name: '' }).invoke(prompt);
    expect(bodies.map((body) => body.response_format)).toMatchObject([
      { json_schema: { name: 'Movie_review' } },
      { json_schema: { name: 'extract' } },
    ]);
  });

  it('a config name that is no string is refused by core before anything is sent', async () => {
    const { bodies, connection } = await recordingGateway();
    const chat = new GatewayChatModel({ ...connection, model: 'community/json-schema' });
    const name = 5 as unknown as string;
    await expect(
      chat.withStructuredOutput(TitledReview, { name }).invoke(prompt),
    ).rejects.toMatchObject({
      code: 'invalid_request_error',
      field: 'response_format.json_schema',
    });
    expect(bodies).toEqual([]);
  });
});

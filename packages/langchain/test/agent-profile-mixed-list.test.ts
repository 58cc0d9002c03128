// A fallback list's `profile` asks each listed model the single model's rule: `createAgent` sends
// `response_format` when every listed model is served it (core serves each its own way), even when
// they serve it differently (json_schema natively, json_object by core's rule) and share no way.
import { describe, expect, it } from 'vitest';
import { profileForList } from '../src/chat_models/capabilities';
import { answeredBy, askedHowWarm, listedModel } from './helpers';

describe('profile over a list whose models serve structured output differently', () => {
  it('createAgent answers responseFormat on json-schema with json-object as its fallback', async () => {
    const { emulator, bodies, model } = await listedModel(
      'community/json-schema',
      ['community/json-object'],
      { maxRetries: 0 },
    );
    await askedHowWarm(model);
    expect(model.profile).toEqual({
      toolCalling: false,
      toolChoice: false,
      structuredOutput: true,
    });
    expect(bodies[0]).toMatchObject({
      model: 'community/json-schema',
      response_format: { type: 'json_schema' },
    });
    expect(bodies[0]?.tools).toBeUndefined();

    // With the first model down, the fallback answers by json_object (core's way for it).
    bodies.length = 0;
    emulator.injectFault({ fault: 'bad_gateway', model: 'community/json-schema' });
    const result = await askedHowWarm(model);
    const last = bodies.at(-1);
    expect(last).toMatchObject({ model: 'community/json-object' });
    expect(last?.response_format).toEqual({ type: 'json_object' });
    expect(answeredBy(result)).toBe('community/json-object');
  });

  it('the list without tools anywhere: createAgent answers through the model that serves it', async () => {
    const { model } = await listedModel('community/json-schema', ['community/plain']);
    // createAgent's own tool would be refused outright: no listed model has tools.
    await askedHowWarm(model);
    expect(model.profile).toMatchObject({ toolCalling: false, structuredOutput: true });
  });

  it('each listed model on its own rule; tools only when every listed model has them', () => {
    const schema = ['chat', 'json_schema'];
    const object = ['chat', 'json_object'];
    const toolsAndObject = ['chat', 'tools', 'json_object'];
    const everything = ['chat', 'tools', 'json_object', 'json_schema'];
    const profile = (...listed: string[][]) => profileForList(listed, true);
    expect(profile(schema, object)).toEqual({
      toolCalling: false,
      toolChoice: false,
      structuredOutput: true,
    });
    expect(profile(everything, schema, object)).toMatchObject({
      toolCalling: false,
      structuredOutput: true,
    });
    // A model with tools but no json_schema keeps LangChain's tool, which every listed one serves.
    expect(profile(everything, toolsAndObject)).toEqual({
      toolCalling: true,
      toolChoice: true,
      structuredOutput: false,
    });
    // Some listed model has tools: createAgent's tool still reaches it.
    expect(profile(schema, ['chat', 'tools'])).toMatchObject({ structuredOutput: false });
    expect(profile(['chat'], ['chat'])).toMatchObject({ structuredOutput: false });
    expect(profileForList(undefined, true)).toEqual({});
    expect(profileForList([schema, object], false)).toMatchObject({ imageInputs: false });
  });

  it('the allowed methods apply to each listed model', () => {
    const listed = [
      ['chat', 'json_schema'],
      ['chat', 'json_object'],
    ];
    expect(profileForList(listed, true, ['json_schema'])).toMatchObject({
      structuredOutput: true, // json_object model skipped by core; no model has tools either way
    });
    expect(profileForList(listed, true, ['tools'])).toMatchObject({ structuredOutput: false });
    expect(
      profileForList(
        [
          ['chat', 'json_schema'],
          ['chat', 'tools', 'json_object'],
        ],
        true,
        ['json_object'],
      ),
    ).toMatchObject({ structuredOutput: false });
  });

  it('a listed model of unknown capabilities leaves the profile unknown', async () => {
    const { model } = await listedModel('community/json-schema', ['my/offline-model']);
    expect(model.profile).toEqual({});
  });
});

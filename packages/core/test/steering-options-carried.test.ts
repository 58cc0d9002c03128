import { describe, expect, it } from 'vitest';
import { optionKeys, STEERING_OPTIONS, type SteeringOptions } from '../src/call/option-groups';
import { readSteering, resolveSteering, steers } from '../src/steering/steering-options';
import { NO_CLIENT_STEERING } from './helpers';

// CONTRIBUTING.md, "Adding an option": a steering option is declared once (call/option-groups.ts),
// and the descriptor carries it to every adapter. Core's own readers copy the group field by field
// (its check, the merge of a model's settings with a call's, whether a call steers): a field they
// miss would compile and do nothing. One valid value per field (a new field fails to compile here
// until it has one), each given alone, must come out of each.
const SAMPLE: { [K in keyof Required<SteeringOptions>]: SteeringOptions[K] } = {
  fallbackModels: ['model-b'],
  firstChunkTimeoutMs: 1_000,
  chunkTimeoutMs: 1_000,
  hedge: { afterMs: 200 },
  structuredOutput: { methods: ['tools'] },
};

/** A request asking for structured output: `structuredOutput` steers only such a call. */
const ASKS_FOR_A_SCHEMA = { response_format: { type: 'json_schema' } };

describe('each steering option, given alone, reaches every reader of the group', () => {
  it('has a sample for each field of the descriptor', () => {
    expect(Object.keys(SAMPLE).sort()).toEqual(optionKeys(STEERING_OPTIONS).sort());
  });

  it.each(optionKeys(STEERING_OPTIONS))('%s', (key) => {
    const given: SteeringOptions = { [key]: SAMPLE[key] };
    const read = readSteering(given, 'call option', 'model-a');
    // (`structuredOutput` is read as its methods: a default list when not given.)
    if (key === 'structuredOutput') expect(read.structuredOutputMethods).toEqual(['tools']);
    else expect(read[key], 'readSteering').toBeDefined();
    expect(resolveSteering(given, undefined)[key], "resolveSteering, a model's").toEqual(
      SAMPLE[key],
    );
    expect(resolveSteering(undefined, given)[key], "resolveSteering, a call's").toEqual(
      SAMPLE[key],
    );
    const request = key === 'structuredOutput' ? ASKS_FOR_A_SCHEMA : undefined;
    expect(steers(given, NO_CLIENT_STEERING, request), 'steers').toBe(true);
  });
});

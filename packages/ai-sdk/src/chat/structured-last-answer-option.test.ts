import { emulate, withFailingStructuredModels } from '@infergate/emulator/testing';
import { generateText, NoObjectGeneratedError, Output, streamText } from 'ai';
import { afterAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { createGateway } from '../provider/gateway-provider';
import { InvalidStructuredOutputError } from './invalid-structured-output-error';

// Two json_schema models: one answering off the schema, one answering text that is not JSON.
const emulated = await emulate({ scenario: withFailingStructuredModels() });
afterAll(() => emulated.close());
const gateway = createGateway({ ...emulated.connection });
const Place = z.object({ city: z.string(), kind: z.enum(['a', 'b']) });
const checked = { infergate: { structuredOutput: { lastAnswer: 'checked' as const } } };

describe("structuredOutput.lastAnswer, the call's own", () => {
  it("'checked' wins over the provider's 'returned': core's typed error, its issues and route", async () => {
    const failure = await generateText({
      model: gateway('x/cut'),
      output: Output.object({ schema: Place }),
      prompt: 'Where is "Kyiv"?',
      maxRetries: 0,
      providerOptions: checked,
    }).catch((error: unknown) => error);
    expect(InvalidStructuredOutputError.isInstance(failure)).toBe(true);
    const error = failure as InvalidStructuredOutputError;
    expect(error.issues.length).toBeGreaterThan(0);
    expect(error.route?.hops.map((hop) => hop.model)).toEqual(['x/cut']);
  });

  it('unset: the last answer is handed to `ai`, whose own error it is', async () => {
    const failure = await generateText({
      model: gateway('x/cut'),
      output: Output.object({ schema: Place }),
      prompt: 'Where is "Kyiv"?',
      maxRetries: 0,
    }).catch((error: unknown) => error);
    expect(NoObjectGeneratedError.isInstance(failure)).toBe(true);
  });

  it('a stream whose last model fails after another failed names both, as a whole answer does', async () => {
    let failure: unknown;
    const result = streamText({
      model: gateway('x/off'),
      output: Output.object({ schema: Place }),
      prompt: 'Where is "Kyiv"?',
      maxRetries: 0,
      providerOptions: { infergate: { ...checked.infergate, fallbackModels: ['x/cut'] } },
      onError: ({ error }) => {
        failure = error;
      },
    });
    for await (const _ of result.fullStream);
    expect(InvalidStructuredOutputError.isInstance(failure)).toBe(true);
    const error = failure as InvalidStructuredOutputError;
    expect(error.message).toMatch(
      /^Every model tried failed \(2 attempts\): "x\/off": .*"x\/cut": /,
    );
    expect(error.route?.hops.map((hop) => hop.outcome)).toEqual(['failed', 'ended']);
  });
});

/**
 * `ask_model` with `json: true` asks for "a JSON object", and its first text block is "the JSON
 * alone": core checks it (structured output, any object, by json_object): an answer that is not
 * one (JSON cut short, an array, prose around the JSON) is refused, `invalid_structured_output`,
 * its text kept, and a what_to_do worded for `json: true`. An answer in a code fence is core's to
 * unwrap (§4.8), and passes. Through the MCP SDK's Client against the emulator, whose
 * model answers JSON the ways `jsonAnswers` says.
 */
import type { JsonAnswers } from '@infergate/emulator';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { describe, expect, it } from 'vitest';
import { connectedHarnessOfFile } from './harness';

const { harness, client } = connectedHarnessOfFile();

/** `ask_model` with `json: true` on community/general, its JSON answered as `answers` says. */
async function askJson(answers: JsonAnswers | null): Promise<CallToolResult> {
  harness().gateway.emulator.scenario.models['community/general']!.jsonAnswers = answers;
  const args = { model: 'community/general', prompt: 'hi', json: true };
  return (await client().callTool({ name: 'ask_model', arguments: args })) as CallToolResult;
}

const texts = (result: CallToolResult) =>
  result.content.map((block) => (block.type === 'text' ? block.text : ''));

function refusal(result: CallToolResult) {
  expect(result.isError).toBe(true);
  return (result.structuredContent as { error: Record<string, unknown> }).error;
}

const RETRY =
  'Call again (the model may answer with an object next time), add fallback_models (models with json_object), or pass output_schema to say what the object holds.';

const CORE =
  'community/general answered structured output (method json_object) that fails its check:';

describe('ask_model json: true checks the answer is a JSON object', () => {
  it('JSON cut short: refused, the text kept', async () => {
    const result = await askJson({ invalidShare: 1 });
    const error = refusal(result);
    expect(error).toMatchObject({
      code: 'invalid_structured_output',
      message: `${CORE} the answer is not JSON (at position 1)`,
      model: 'community/general',
      what_to_do: RETRY,
    });
    expect(() => JSON.parse(error.text as string)).toThrow();
    expect(texts(result)).toEqual([
      `Gateway error invalid_structured_output: ${error.message}\n${RETRY}`,
      `The answer as given:\n${error.text}`,
    ]);
  });

  it('an array: refused as JSON that is not an object', async () => {
    const error = refusal(await askJson({ offSchemaShare: 1 }));
    expect(error.message).toBe(`${CORE} must be object, got array`);
    expect(JSON.parse(error.text as string)).toEqual([{}]);
  });

  it('prose around the JSON: refused, the prose kept', async () => {
    const error = refusal(await askJson({ wrap: 'prose' }));
    expect(error.message).toBe(`${CORE} the answer is not JSON`);
    expect(error.text).toContain('{}');
    expect(error.text).not.toBe('{}');
  });

  it('an object in a code fence: core unwraps it, and it passes', async () => {
    const result = await askJson({ wrap: 'fence' });
    expect(result.isError).toBeFalsy();
    // (The emulator answers the schema core states for json: true, any object: `{}`.)
    expect(texts(result)).toEqual(['{}']);
  });

  it('a plain object: passes as the JSON alone', async () => {
    const result = await askJson(null);
    expect(result.isError).toBeFalsy();
    expect(JSON.parse(texts(result)[0]!)).toEqual({});
  });
});

/**
 * `ask_model` with `json: true` asks for "a JSON object", and its first text block is "the JSON
 * alone": an answer that is not one (JSON cut short, an array, prose around the JSON) is refused
 * with core's code for an answer that fails the format it was asked for
 * (`invalid_structured_output`), its text kept, and a what_to_do. An answer in a code fence is
 * core's to unwrap (§4.8), and passes. Through the MCP SDK's Client against the emulator, whose
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
  'Call again (the model may answer with an object next time), or pass output_schema instead: every answer is then checked against it, and fallback_models can take over.';

describe('ask_model json: true checks the answer is a JSON object', () => {
  it('JSON cut short: refused, the text kept', async () => {
    const result = await askJson({ invalidShare: 1 });
    const error = refusal(result);
    expect(error).toMatchObject({
      code: 'invalid_structured_output',
      message: 'The answer of community/general is not JSON; json: true asks for a JSON object',
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
    expect(error.message).toBe(
      'The answer of community/general is JSON but an array, not an object; json: true asks for a JSON object',
    );
    expect(JSON.parse(error.text as string)).toEqual([{ answer: 'Echo: hi' }]);
  });

  it('prose around the JSON: refused, the prose kept', async () => {
    const error = refusal(await askJson({ wrap: 'prose' }));
    expect(error.message).toBe(
      'The answer of community/general is not JSON; json: true asks for a JSON object',
    );
    expect(error.text).toContain('{"answer":"Echo: hi"}');
  });

  it('an object in a code fence: core unwraps it, and it passes', async () => {
    const result = await askJson({ wrap: 'fence' });
    expect(result.isError).toBeFalsy();
    expect(texts(result)).toEqual(['{"answer":"Echo: hi"}']);
  });

  it('a plain object: passes as the JSON alone', async () => {
    const result = await askJson(null);
    expect(result.isError).toBeFalsy();
    expect(JSON.parse(texts(result)[0]!)).toEqual({ answer: 'Echo: hi' });
  });
});

/**
 * `ask_model` with `json: true` on models none of which lists `json_object`: refused before
 * sending (`no_model_can_serve`) in the tool's words — `json: true` needs `json_object`,
 * `missing: ['json_object']`, the alternatives kept — never naming core's
 * `structuredOutput.methods` or json_schema / tools, which the tool's `json` does not use.
 * Through the MCP SDK's Client against the emulator.
 */
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { describe, expect, it } from 'vitest';
import { askModelOfFile } from './harness';

const ask = askModelOfFile({});

interface Refusal {
  code: string;
  message: string;
  missing?: string[];
  alternatives?: string[];
  skipped?: { model: string; reason: string; detail: string }[];
  what_to_do: string;
}

async function refusalOf(args: Record<string, unknown>): Promise<Refusal> {
  const result: CallToolResult = await ask({ prompt: 'hi', json: true, ...args });
  expect(result.isError).toBe(true);
  const { error } = result.structuredContent as { error: Refusal };
  const text = result.content.map((block) => (block.type === 'text' ? block.text : '')).join();
  for (const words of [error.message, error.what_to_do, text, JSON.stringify(error.skipped)]) {
    expect(words).not.toMatch(/structuredOutput|json_schema|tools/);
  }
  return error;
}

describe('ask_model json: true on a model without json_object', () => {
  it.each([
    ['no json mode at all', 'community/plain'],
    ['json_schema only', 'community/json-schema'],
  ])('%s: "json: true needs a model with json_object"', async (_, model) => {
    const error = await refusalOf({ model });
    expect(error.code).toBe('no_model_can_serve');
    expect(error.message).toMatch(
      new RegExp(
        `^json: true needs a model with json_object: Model "${model}" does not list json_object\\. Models with json_object: community/general, `,
      ),
    );
    expect(error.missing).toEqual(['json_object']);
    expect(error.alternatives).toContain('community/json-object');
    expect(error.skipped).toEqual([
      { model, reason: 'missing_capability', detail: `Model "${model}" does not list json_object` },
    ]);
    expect(error.what_to_do).toMatch(/^Name a model with json_object from list_models, such as /);
  });

  it('with fallback_models: each model named, why', async () => {
    const error = await refusalOf({ model: 'community/plain', fallback_models: ['combo/none'] });
    expect(error.code).toBe('no_model_can_serve');
    expect(error.missing).toEqual(['json_object']);
    expect(error.skipped?.map((entry) => entry.model)).toEqual(['community/plain', 'combo/none']);
    expect(error.message).toContain('Model "combo/none" does not list json_object');
  });
});

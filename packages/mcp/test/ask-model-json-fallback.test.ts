/**
 * `ask_model` with `json: true` and `fallback_models`: an answer that is not a JSON object is
 * core's `invalid_structured_output`, a failover reason, so the next model is tried; when every
 * model named fails so, the error carries the route (every model and why) and says to name
 * others. Through the MCP SDK's Client against the emulator, whose models answer JSON the ways
 * `jsonAnswers` says.
 */
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { afterEach, describe, expect, it } from 'vitest';
import { connectedHarnessOfFile } from './harness';

const { harness, client } = connectedHarnessOfFile();
const models = () => harness().gateway.emulator.scenario.models;
afterEach(() => {
  models()['community/general']!.jsonAnswers = null;
  models()['community/json-object']!.jsonAnswers = null;
});

async function ask(args: Record<string, unknown>): Promise<CallToolResult> {
  return (await client().callTool({ name: 'ask_model', arguments: args })) as CallToolResult;
}

const JSON_WITH_FALLBACK = {
  model: 'community/general',
  prompt: 'hi',
  json: true,
  fallback_models: ['community/json-object'],
};

describe('ask_model json: true with fallback_models', () => {
  it('an answer that is not JSON moves the call to the fallback, which answers', async () => {
    models()['community/general']!.jsonAnswers = { invalidShare: 1 };
    const result = await ask(JSON_WITH_FALLBACK);
    expect(result.isError).toBeFalsy();
    const structured = result.structuredContent as Record<string, unknown>;
    expect(structured).toMatchObject({
      model: 'community/json-object',
      requested_model: 'community/general',
      route: {
        hops: [
          { model: 'community/general', outcome: 'failed', reason: 'invalid_structured_output' },
          { model: 'community/json-object', outcome: 'answered' },
        ],
      },
    });
    expect(typeof JSON.parse(structured.text as string)).toBe('object');
  });

  it('every model fails: the error has the route and says to name other models', async () => {
    models()['community/general']!.jsonAnswers = { invalidShare: 1 };
    models()['community/json-object']!.jsonAnswers = { offSchemaShare: 1 };
    const result = await ask(JSON_WITH_FALLBACK);
    expect(result.isError).toBe(true);
    const { error } = result.structuredContent as { error: Record<string, unknown> };
    expect(error).toMatchObject({
      code: 'invalid_structured_output',
      route: { requested: ['community/general', 'community/json-object'] },
    });
    expect(error.what_to_do).toMatch(
      /^Every model tried answered something other than a JSON object/,
    );
    expect(error.what_to_do).toContain('list_models');
  });
});

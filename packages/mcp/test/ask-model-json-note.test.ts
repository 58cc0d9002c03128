/**
 * `ask_model` with `json: true` answered by another model than the one asked for (a
 * `fallback_models` entry, or the pool fallback of an offline own model), through the MCP SDK's
 * Client against the emulator: the first text block is the JSON answer alone, so a client can
 * parse it, and the note naming who answered comes as a second text block (as with output_schema).
 */
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { beforeEach, describe, expect, it } from 'vitest';
import { connectedHarnessOfFile } from './harness';

const { harness, client } = connectedHarnessOfFile();
const emulator = () => harness().gateway.emulator;
beforeEach(() => {
  emulator().clearFaults();
});

async function ask(args: Record<string, unknown>): Promise<CallToolResult> {
  return (await client().callTool({ name: 'ask_model', arguments: args })) as CallToolResult;
}

/** Each text block of a result. */
const blocks = (result: CallToolResult) =>
  result.content.map((block) => (block.type === 'text' ? block.text : ''));

describe('ask_model json: true answered in place of another model', () => {
  it('a fallback_models entry answered: the JSON alone, then the note', async () => {
    emulator().injectFault({ fault: 'model_busy', model: 'community/general', retryAfter: 3600 });
    const result = await ask({
      model: 'community/general',
      prompt: 'give me json',
      json: true,
      fallback_models: ['community/json-object'],
    });
    expect(result.isError).toBeFalsy();
    const [answer, note, ...rest] = blocks(result);
    // (The emulator answers the schema core states for json: true, any object: `{}`.)
    expect(JSON.parse(answer!)).toEqual({});
    expect(note).toBe(
      '(answered by community/json-object in place of community/general; community/general: failed (model_busy))',
    );
    expect(rest).toEqual([]);
    expect(result.structuredContent).toMatchObject({
      text: answer,
      model: 'community/json-object',
    });
  });

  it("an offline own model answered by its pool's fallback: the JSON alone, then the note", async () => {
    const own = emulator().scenario.models['my/laptop-model']!;
    expect(own.online).toBe(false);
    own.capabilities.push('json_object');
    const result = await ask({ model: 'my/laptop-model', prompt: 'give me json', json: true });
    expect(result.isError).toBeFalsy();
    const [answer, note, ...rest] = blocks(result);
    // (The emulator answers the schema core states for json: true, any object: `{}`.)
    expect(JSON.parse(answer!)).toEqual({});
    expect(note).toMatch(/^\(answered by \S+ in place of my\/laptop-model\)$/);
    expect(rest).toEqual([]);
  });
});

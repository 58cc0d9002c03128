/**
 * Every tool declares an `outputSchema`, and its `structuredContent` satisfies it: checked by the
 * MCP SDK's own `Client`, whose `callTool` validates every result against the schema `tools/list`
 * gave (it throws on a mismatch), failed calls' `{ error }` envelopes included.
 */
import { pngWithText, wavWithSpeech } from '@infergate/emulator/fixtures';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { AjvJsonSchemaValidator } from '@modelcontextprotocol/sdk/validation/ajv-provider.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { publishedSchema } from '../src/conform-output';
import * as outputs from '../src/tool-output-schemas';
import { type Harness, startHarness } from './harness';

let harness: Harness;
let client: Client;
let schemas: Map<string, Record<string, unknown>>;
beforeAll(async () => {
  harness = await startHarness();
  client = await harness.connect();
  const { tools } = await client.listTools(); // the client caches each tool's validator
  schemas = new Map(tools.map((tool) => [tool.name, tool.outputSchema ?? {}]));
});
afterAll(() => harness.close());

const base64 = (bytes: Uint8Array) => Buffer.from(bytes).toString('base64');

const SUCCESSFUL_CALLS: [string, Record<string, unknown>][] = [
  ['translate', { text: 'Good morning', target_language: 'de' }],
  ['ocr', { image_base64: base64(pngWithText('Invoice 42')) }],
  ['transcribe', { audio_base64: base64(wavWithSpeech('hello there')), translate: true }],
  ['embed', { texts: ['one', 'two'], engine: 'all-minilm-l6-v2' }],
  ['similarity', { query: 'cats', texts: ['dogs', 'cats'], engine: 'all-minilm-l6-v2' }],
  ['list_models', {}],
  ['ask_model', { model: 'my/laptop-model', prompt: 'hi' }],
];

describe('output schemas', () => {
  it('every tool declares an object outputSchema whose anyOf names its result or error', () => {
    expect([...schemas.keys()].sort()).toEqual(SUCCESSFUL_CALLS.map(([name]) => name).sort());
    for (const [name, schema] of schemas) {
      expect(schema.type, name).toBe('object');
      expect(schema.anyOf, name).toContainEqual({ required: ['error'] });
    }
    expect(schemas.get('translate')?.anyOf).toContainEqual({
      required: ['text', 'target_language'],
    });
  });

  it('results are made to fit the very JSON Schema tools/list publishes (conform-output.ts)', () => {
    const declared: Record<string, Parameters<typeof publishedSchema>[0]> = {
      translate: outputs.translateOutput,
      ocr: outputs.ocrOutput,
      transcribe: outputs.transcribeOutput,
      embed: outputs.embedOutput,
      similarity: outputs.similarityOutput,
      list_models: outputs.listModelsOutput,
      ask_model: outputs.askModelOutput,
    };
    for (const [name, schema] of schemas) {
      expect(publishedSchema(declared[name]!), name).toEqual(schema);
    }
  });

  it.each(SUCCESSFUL_CALLS)(
    '%s: the structured content passes the client’s validation',
    async (name, args) => {
      const result = await client.callTool({ name, arguments: args });
      expect(result.isError, JSON.stringify(result.content)).toBeFalsy();
      expect(result.structuredContent).toBeDefined();
    },
  );

  it('a failed call’s { error } envelope passes too (the SDK 1.x client validates it as well)', async () => {
    const result = await client.callTool({
      name: 'ask_model',
      arguments: { model: 'community/generl', prompt: 'hi' },
    });
    expect(result.isError).toBe(true);
    expect(result.structuredContent).toMatchObject({ error: { code: 'model_not_found' } });
  });

  it('the schemas say something: a result missing its fields, or of the wrong type, fails them', () => {
    const validator = new AjvJsonSchemaValidator();
    const translate = validator.getValidator(schemas.get('translate')!);
    expect(translate({ text: 'hi', target_language: 'de' }).valid).toBe(true);
    expect(translate({ text: 'hi' }).valid).toBe(false);
    expect(translate({ text: 1, target_language: 'de' }).valid).toBe(false);
    expect(translate({}).valid).toBe(false);
    const embed = validator.getValidator(schemas.get('embed')!);
    expect(embed({ engine: 'e', dimensions: 2, vectors: [['x']] }).valid).toBe(false);
  });
});

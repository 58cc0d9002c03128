// withStructuredOutput({ includeRaw: true }) on an answer that fails the schema: the model's run
// ends with that answer (handleLLMEnd, its tokens to the callbacks: usage trackers, LangSmith), as
// ChatOpenAI's does, and the parse step refuses it (`parsed: null`); it was recorded as a failed
// model run (handleLLMError, no tokens). Core still moves on from every answer but the last.
import { emulate } from '@infergate/emulator/testing';
import type { CallbackHandlerMethods } from '@langchain/core/callbacks/base';
import type { AIMessage } from '@langchain/core/messages';
import { OutputParserException } from '@langchain/core/output_parsers';
import type { LLMResult } from '@langchain/core/outputs';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { GatewayChatModel } from '../src';

const Person = z.object({ name: z.string(), age: z.number() });
const PersonJson = {
  type: 'object',
  properties: { name: { type: 'string' }, age: { type: 'number' } },
  required: ['name', 'age'],
  additionalProperties: false,
};

const BAD = {
  owned_by: 'service-community' as const,
  capabilities: [
    'chat' as const,
    'streaming' as const,
    'tools' as const,
    'json_object' as const,
    'json_schema' as const,
  ],
  jsonAnswers: { offSchemaShare: 1 },
};

/** `x/bad` and `x/worse` answer every structured call off the schema. */
async function gateway() {
  return emulate({ scenario: { models: { 'x/bad': BAD, 'x/worse': BAD } } });
}

type RawResult = { raw: AIMessage; parsed: unknown; parsingError?: unknown };

/** What the callbacks saw of the model's runs. */
function recorder() {
  const seen = { ends: 0, errors: 0, tokens: 0 };
  const handler: CallbackHandlerMethods = {
    handleLLMEnd(output: LLMResult) {
      seen.ends++;
      for (const generation of output.generations.flat()) {
        const message = (generation as { message?: AIMessage }).message;
        seen.tokens += message?.usage_metadata?.total_tokens ?? 0;
      }
    },
    handleLLMError() {
      seen.errors++;
    },
  };
  return { seen, callbacks: [handler] };
}

describe('includeRaw: the model run of an answer that fails the schema ends, its tokens reported', () => {
  // (The emulator's off-schema answers are JSON text; its forced tool calls keep the schema.)
  for (const method of ['jsonMode', 'jsonSchema'] as const) {
    it(`${method}, zod: handleLLMEnd with the tokens; parsed null, the parser's refusal naming the issue`, async () => {
      const { connection } = await gateway();
      const structured = new GatewayChatModel('x/bad', connection).withStructuredOutput(Person, {
        includeRaw: true,
        method,
      });
      const { seen, callbacks } = recorder();
      const result = (await structured.invoke('Describe "Ada Lovelace"', {
        callbacks,
      })) as RawResult;
      expect(result.parsed).toBeNull();
      expect(result.parsingError).toBeInstanceOf(OutputParserException);
      expect((result.parsingError as Error).message).toContain(
        'x/bad answered structured output that fails its schema: ',
      );
      const tokens = result.raw.usage_metadata?.total_tokens ?? 0;
      expect(tokens).toBeGreaterThan(0);
      expect(seen).toEqual({ ends: 1, errors: 0, tokens });
    });
  }

  it('a JSON schema: the same (core checked it; no issues handed on)', async () => {
    const { connection } = await gateway();
    const structured = new GatewayChatModel('x/bad', connection).withStructuredOutput(
      { title: 'Person', ...PersonJson },
      { includeRaw: true },
    );
    const { seen, callbacks } = recorder();
    const result = (await structured.invoke('Describe "Ada Lovelace"', { callbacks })) as RawResult;
    expect(result.parsed).toBeNull();
    expect(result.parsingError).toBeInstanceOf(OutputParserException);
    expect(seen).toMatchObject({ ends: 1, errors: 0 });
    expect(seen.tokens).toBe(result.raw.usage_metadata?.total_tokens);
  });

  it('with a fallback model: core still moved on; the last answer ends the run', async () => {
    const { connection, counters } = await gateway();
    const model = new GatewayChatModel('x/bad', { ...connection, fallbackModels: ['x/worse'] });
    const structured = model.withStructuredOutput(Person, { includeRaw: true });
    const { seen, callbacks } = recorder();
    const result = (await structured.invoke('Describe "Ada Lovelace"', { callbacks })) as RawResult;
    expect(counters.requests.chat).toBe(2);
    expect(result.parsed).toBeNull();
    expect(result.raw.response_metadata.model_name).toBe('x/worse');
    // The refusal names the model that answered, not the one the call was made with.
    expect((result.parsingError as Error).message).toContain('x/worse answered structured output');
    expect(seen).toMatchObject({ ends: 1, errors: 0 });
    expect(seen.tokens).toBeGreaterThan(0);
  });

  it('stream(): the run ends too, the last chunk parsed null', async () => {
    const { connection } = await gateway();
    const structured = new GatewayChatModel('x/bad', connection).withStructuredOutput(Person, {
      includeRaw: true,
    });
    const { seen, callbacks } = recorder();
    const chunks: RawResult[] = [];
    for await (const chunk of await structured.stream('Describe "Ada Lovelace"', { callbacks })) {
      chunks.push(chunk as RawResult);
    }
    expect(chunks.at(-1)).toMatchObject({ parsed: null });
    expect(chunks.at(-1)?.parsingError).toBeInstanceOf(OutputParserException);
    expect(seen).toMatchObject({ ends: 1, errors: 0 });
  });

  it('without includeRaw: still an OutputParserException, the model run failed', async () => {
    const { connection } = await gateway();
    const structured = new GatewayChatModel('x/bad', connection).withStructuredOutput(Person);
    const { seen, callbacks } = recorder();
    await expect(
      structured.invoke('Describe "Ada Lovelace"', { callbacks }),
    ).rejects.toBeInstanceOf(OutputParserException);
    expect(seen).toMatchObject({ ends: 0, errors: 1 });
  });
});

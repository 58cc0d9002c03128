import { emulate } from '@infergate/emulator/testing';
import type { AIMessage } from '@langchain/core/messages';
import { OutputParserException } from '@langchain/core/output_parsers';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { GatewayChatModel } from '../src';

const Person = z.object({ name: z.string(), age: z.number() });

/** `x/bad` answers every structured call off the schema; `community/general` keeps it. */
async function gateway() {
  return emulate({
    scenario: {
      models: {
        'x/bad': {
          owned_by: 'service-community',
          capabilities: ['chat', 'streaming', 'tools', 'json_object', 'json_schema'],
          jsonAnswers: { offSchemaShare: 1 },
        },
      },
    },
  });
}

type RawResult = { raw: AIMessage; parsed: unknown; parsingError?: unknown };

describe('withStructuredOutput({ includeRaw: true }) on an answer that fails the schema', () => {
  // (The emulator's off-schema answers are JSON text; a forced tool call's arguments take the
  // same path through core's check and this runnable.)
  for (const method of ['jsonMode', 'jsonSchema'] as const) {
    it(`${method}: { raw, parsed: null, parsingError } as LangChain's contract, not a throw`, async () => {
      const { connection } = await gateway();
      const model = new GatewayChatModel('x/bad', connection);
      const structured = model.withStructuredOutput(Person, { includeRaw: true, method });
      const result = (await structured.invoke('Describe "Ada Lovelace"')) as RawResult;
      expect(result.parsed).toBeNull();
      expect(result.parsingError).toBeInstanceOf(OutputParserException);
      // The refused answer is there to repair from, with the model that sent it.
      expect(typeof result.raw.content).toBe('string');
      expect(result.raw.content).not.toBe('');
      expect(result.raw.response_metadata.model_name).toBe('x/bad');
    });
  }

  it('stream() ends with the same result', async () => {
    const { connection } = await gateway();
    const model = new GatewayChatModel('x/bad', connection);
    const structured = model.withStructuredOutput(Person, { includeRaw: true });
    const chunks: RawResult[] = [];
    for await (const chunk of await structured.stream('Describe "Ada Lovelace"')) {
      chunks.push(chunk as RawResult);
    }
    expect(chunks.at(-1)).toMatchObject({ parsed: null });
    expect(chunks.at(-1)?.parsingError).toBeInstanceOf(OutputParserException);
  });

  it("a fallback model still gets its turn: only the call's last failure is parsed: null", async () => {
    const { connection } = await gateway();
    const model = new GatewayChatModel('x/bad', {
      ...connection,
      fallbackModels: ['community/general'],
    });
    const structured = model.withStructuredOutput(Person, { includeRaw: true });
    const result = (await structured.invoke('Describe "Ada Lovelace"')) as RawResult;
    expect(result.parsed).toMatchObject({ name: expect.any(String), age: expect.any(Number) });
    expect(result.parsingError).toBeUndefined();
    expect(
      (result.raw.response_metadata.route as { hops: { model: string }[] }).hops.map(
        (hop) => hop.model,
      ),
    ).toEqual(['x/bad', 'community/general']);
  });

  it('without includeRaw the failure is still an OutputParserException', async () => {
    const { connection } = await gateway();
    const structured = new GatewayChatModel('x/bad', connection).withStructuredOutput(Person);
    await expect(structured.invoke('Describe "Ada Lovelace"')).rejects.toBeInstanceOf(
      OutputParserException,
    );
  });
});

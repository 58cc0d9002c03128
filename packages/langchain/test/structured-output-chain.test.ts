// withStructuredOutput inside a streamed chain: LangChain joins the chunks a run yields (for the
// next step and for the run's end), so each partial object must join as the later one, not be
// summed with the one before it.
import { emulate } from '@infergate/emulator/testing';
import type { AIMessageChunk } from '@langchain/core/messages';
import { RunnableLambda } from '@langchain/core/runnables';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { GatewayChatModel } from '../src/index';
import { intercepting, streamOf } from './helpers';

const Person = z.object({ name: z.string(), age: z.number() });
const describePerson = RunnableLambda.from(
  (person: { name: string; age: number }) => `${person.name} is ${person.age}`,
);

/** A model whose streamed answer is the JSON in these pieces. */
async function answering(pieces: string[]): Promise<GatewayChatModel> {
  const connection = intercepting(await emulate(), async (request) =>
    request.url.endsWith('/chat/completions')
      ? streamOf(pieces.map((content) => ({ content })))
      : undefined,
  );
  return new GatewayChatModel('community/general', connection);
}

async function collect<T>(stream: AsyncIterable<T>): Promise<T[]> {
  const parts: T[] = [];
  for await (const part of stream) parts.push(part);
  return parts;
}

const ADA = ['{"name":"A', 'da","age":', '36}'];
/** A number split across chunks: `3` then `36` would add up to 39. */
const AGE_SPLIT = ['{"age":3', '6,"name":"Ada"', '}'];
/** Ada's answer split inside a string, and inside a number. */
const SPLITS: [string, string[]][] = [
  ['a string', ADA],
  ['a number', AGE_SPLIT],
];

describe('withStructuredOutput streamed into a next step', () => {
  it.each(SPLITS)(
    'the next step gets the whole object once (%s split across chunks)',
    async (_label, pieces) => {
      const model = await answering(pieces);
      const chain = model.withStructuredOutput(Person).pipe(describePerson);
      expect(await collect(await chain.stream('describe "Ada"'))).toEqual(['Ada is 36']);
    },
  );

  it('streamEvents v2 and handleChainEnd give the whole object as the run’s output', async () => {
    const model = await answering(ADA);
    const structured = model.withStructuredOutput(Person);
    const ends: unknown[] = [];
    for await (const event of structured.streamEvents('describe "Ada"', { version: 'v2' })) {
      if (event.event === 'on_parser_end' || event.event === 'on_chain_end')
        ends.push(event.data.output);
    }
    expect(ends.length).toBeGreaterThan(0);
    for (const output of ends) expect(output).toEqual({ name: 'Ada', age: 36 });

    const handled: unknown[] = [];
    const callbacks = [{ handleChainEnd: (output: unknown) => void handled.push(output) }];
    await collect(await structured.stream('describe "Ada"', { callbacks }));
    expect(handled.length).toBeGreaterThan(0);
    for (const output of handled) expect(output).toEqual({ name: 'Ada', age: 36 });
  });

  it('includeRaw: the next step gets the whole raw message and the checked object', async () => {
    const model = await answering(AGE_SPLIT);
    const chain = model
      .withStructuredOutput(Person, { includeRaw: true })
      .pipe(RunnableLambda.from((both: { raw: unknown; parsed: unknown }) => both));
    const outputs = await collect(await chain.stream('describe "Ada"'));
    expect(outputs).toHaveLength(1);
    const [{ raw, parsed }] = outputs as [{ raw: AIMessageChunk; parsed: unknown }];
    expect(raw.content).toBe(AGE_SPLIT.join(''));
    expect(parsed).toEqual({ name: 'Ada', age: 36 });
  });

  it('the stream itself still yields plain partial objects as the JSON arrives, then the checked one', async () => {
    const model = await answering(ADA);
    const parts = await collect(await model.withStructuredOutput(Person).stream('describe "Ada"'));
    const ada = { name: 'Ada', age: 36 };
    expect(parts).toEqual([{ name: 'A' }, { name: 'Ada' }, ada, ada]);
    expect(parts.map((part) => JSON.stringify(part))).toEqual([
      '{"name":"A"}',
      '{"name":"Ada"}',
      '{"name":"Ada","age":36}',
      '{"name":"Ada","age":36}',
    ]);
    expect(parts.map((part) => Object.keys({ ...part }))).toEqual([
      ['name'],
      ['name'],
      ['name', 'age'],
      ['name', 'age'],
    ]);
  });
});

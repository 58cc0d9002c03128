// withStructuredOutput(...).stream() against the emulator, on a json_schema model and a tools
// model: the stream ends with the checked value (a zod transform's output: a class instance, a
// Date, a BigInt) even when it reads the same as the last partial, and an array root's last chunk
// is an array like `invoke`'s. LangChain joins a run's chunks (the next step of a chain,
// `streamEvents`, `handleChainEnd`): that join is the checked value too.
import { emulate } from '@infergate/emulator/testing';
import { RunnableLambda } from '@langchain/core/runnables';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { GatewayChatModel } from '../src/index';

class Place {
  constructor(readonly city: string) {}
}

const MODELS = ['community/json-schema', 'community/tools'];
const WHERE = 'Where is "Oslo"?';
const PlaceSchema = z.object({ city: z.string() }).transform((value) => new Place(value.city));
const Cities = z.array(z.object({ city: z.string() })).min(2);

/** `schema` as withStructuredOutput's types take it (they name an object output). */
const asOutput = (schema: z.ZodType) => schema as unknown as Record<string, unknown>;

async function modelOf(id: string): Promise<GatewayChatModel> {
  return new GatewayChatModel(id, (await emulate()).connection);
}

async function collect<T>(stream: AsyncIterable<T>): Promise<T[]> {
  const parts: T[] = [];
  for await (const part of stream) parts.push(part);
  return parts;
}

describe.each(MODELS)('withStructuredOutput(...).stream() on %s', (id) => {
  it('ends with the transform’s class instance, as invoke gives it', async () => {
    const structured = (await modelOf(id)).withStructuredOutput(asOutput(PlaceSchema));
    expect(await structured.invoke(WHERE)).toBeInstanceOf(Place);
    const parts = await collect(await structured.stream(WHERE));
    expect(parts.length).toBeGreaterThan(1);
    expect(parts.at(-1)).toBeInstanceOf(Place);
    expect(parts.at(-1)).toEqual(new Place('Oslo'));
  });

  it('ends with the transform’s Date, not the ISO string of the last partial', async () => {
    const When = z.object({ at: z.string() }).transform((value) => ({ at: new Date(value.at) }));
    const structured = (await modelOf(id)).withStructuredOutput(asOutput(When));
    const parts = await collect(await structured.stream('When? "2024-05-01T10:00:00.000Z"'));
    const last = parts.at(-1) as { at: unknown };
    expect(last.at).toBeInstanceOf(Date);
    expect((last.at as Date).toISOString()).toBe('2024-05-01T10:00:00.000Z');
  });

  it('ends with a BigInt the transform made (no TypeError from JSON)', async () => {
    const Id = z.object({ id: z.string() }).transform((value) => ({ id: BigInt(value.id) }));
    const structured = (await modelOf(id)).withStructuredOutput(asOutput(Id));
    const parts = await collect(await structured.stream('Id is "12345678901234567890"'));
    expect(parts.at(-1)).toEqual({ id: 12345678901234567890n });
  });

  it('streamEvents v2: the parser’s and the chain’s runs end with the class instance', async () => {
    const structured = (await modelOf(id)).withStructuredOutput(asOutput(PlaceSchema));
    const ends: [string, unknown][] = [];
    for await (const event of structured.streamEvents(WHERE, { version: 'v2' })) {
      if (event.event === 'on_parser_end' || event.event === 'on_chain_end')
        ends.push([event.event, event.data.output]);
    }
    expect(ends.map(([kind]) => kind)).toContain('on_parser_end');
    expect(ends.map(([kind]) => kind)).toContain('on_chain_end');
    for (const [, output] of ends) expect(output).toBeInstanceOf(Place);
  });

  it('a next step in a streamed chain, and handleChainEnd, get the class instance once', async () => {
    const structured = (await modelOf(id)).withStructuredOutput(asOutput(PlaceSchema));
    const next = RunnableLambda.from((place: unknown) => place);
    const outputs = await collect(await structured.pipe(next).stream(WHERE));
    expect(outputs).toHaveLength(1);
    expect(outputs[0]).toBeInstanceOf(Place);

    const handled: unknown[] = [];
    const callbacks = [{ handleChainEnd: (output: unknown) => void handled.push(output) }];
    await collect(await structured.stream(WHERE, { callbacks }));
    expect(handled.length).toBeGreaterThan(0);
    for (const output of handled) expect(output).toBeInstanceOf(Place);
  });

  it('an array root: the last chunk is a plain array, whose concat joins as an array does', async () => {
    const structured = (await modelOf(id)).withStructuredOutput(asOutput(Cities));
    const parts = (await collect(
      await structured.stream('Cities near "Oslo"?'),
    )) as unknown as unknown[][];
    const last = parts.at(-1) as { city: string }[];
    expect(last).toEqual([{ city: 'Oslo' }, { city: 'Oslo' }]);
    expect(Object.hasOwn(last, 'concat')).toBe(false);
    const more = [{ city: 'Bergen' }];
    expect(last.concat(more)).toEqual([...last, ...more]);
    // A partial array the caller joins with an array of its own joins as an array, too.
    for (const part of parts) expect(part.concat(more)).toEqual([...part, ...more]);
  });

  it('an array root in a streamed chain and streamEvents: the whole array once', async () => {
    const structured = (await modelOf(id)).withStructuredOutput(asOutput(Cities));
    const next = RunnableLambda.from((cities: unknown) => cities);
    const question = 'Cities near "Oslo"?';
    const whole = [{ city: 'Oslo' }, { city: 'Oslo' }];
    expect(await collect(await structured.pipe(next).stream(question))).toEqual([whole]);
    const ends: unknown[] = [];
    for await (const event of structured.streamEvents(question, { version: 'v2' })) {
      if (event.event === 'on_parser_end' || event.event === 'on_chain_end')
        ends.push(event.data.output);
    }
    expect(ends.length).toBeGreaterThan(1);
    for (const output of ends) expect(output).toEqual(whole);
  });
});

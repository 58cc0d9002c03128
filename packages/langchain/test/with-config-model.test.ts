// `withConfig` (and so `bindTools`) gives the same model with the options as defaults, as
// `ChatOpenAI`'s does: still a chat model, so `bindTools`, `withStructuredOutput`, `profile` and
// another `withConfig` work on it, each call's own options over the bound ones.
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { GatewayChatModel } from '../src/index';
import { nowTool, recordingGateway, recordingModel, weatherTool } from './helpers';

const toolNames = (body: Record<string, unknown> | undefined) =>
  (body?.tools as { function: { name: string } }[] | undefined)?.map((t) => t.function.name);

describe('withConfig returns the model', () => {
  it('withConfig(...).bindTools(...), bindTools(a).bindTools(b): the tools are sent, the bound tags traced', async () => {
    const { bodies, model } = await recordingModel();
    const tags: (string[] | undefined)[] = [];
    const callbacks = [
      {
        handleChatModelStart(...args: unknown[]) {
          tags.push(args[5] as string[] | undefined);
        },
      },
    ];
    const message = await model
      .withConfig({ tags: ['bound'] })
      .bindTools([weatherTool])
      .invoke('call weather for "Paris"', { callbacks, tags: ['call'] });
    expect(message.tool_calls?.map((call) => call.name)).toEqual(['weather']);
    expect(toolNames(bodies[0])).toEqual(['weather']);
    expect(tags[0]).toEqual(expect.arrayContaining(['bound', 'call']));
    // As ChatOpenAI's: the later bindTools' tools replace the earlier's.
    await model.bindTools([weatherTool]).bindTools([nowTool]).invoke('call now');
    expect(toolNames(bodies[1])).toEqual(['now']);
  });

  it('withConfig(...).withStructuredOutput(zod) returns the checked object; the call over the bound', async () => {
    const { bodies, model } = await recordingModel();
    const City = z.object({ city: z.string() });
    const bound = model.withConfig({ seed: 1, tags: ['bound'] });
    expect(await bound.withStructuredOutput(City).invoke('describe "Paris"')).toEqual({
      city: 'Paris',
    });
    await bound.invoke('hi', { seed: 2 });
    await bound.withConfig({ seed: 3 }).invoke('hi');
    expect(bodies.map((body) => body.seed)).toEqual([1, 2, 3]);
  });

  it("withConfig(...).profile is the model's", async () => {
    const { connection } = await recordingGateway();
    const model = await GatewayChatModel.create('community/general', connection);
    expect(model.withConfig({ tags: ['x'] }).profile).toEqual(model.profile);
    expect(model.withConfig({ tags: ['x'] }).profile.toolCalling).toBe(true);
  });

  it('the bound options reach every entry: stream, streamEvents without a version, generate', async () => {
    const { bodies, connection } = await recordingGateway();
    const bound = new GatewayChatModel('community/general', connection).bindTools([weatherTool]);
    for await (const _ of await bound.stream('hi'));
    for await (const _ of bound.streamEvents('hi'));
    await bound.generate([['hi']]);
    expect(bodies.map(toolNames)).toEqual([['weather'], ['weather'], ['weather']]);
  });

  it('chained withConfig joins tags as LangChain joins configs, and calls the bound callbacks once', async () => {
    const { connection } = await recordingGateway();
    const starts: (string[] | undefined)[] = [];
    const callbacks = [
      {
        handleChatModelStart(...args: unknown[]) {
          starts.push(args[5] as string[] | undefined);
        },
      },
    ];
    const model = new GatewayChatModel('community/general', {
      ...connection,
      disableStreaming: true,
    });
    const bound = model.withConfig({ tags: ['a'], callbacks }).withConfig({ tags: ['b'] });
    await bound.invoke('hi');
    for await (const _ of await bound.stream('hi'));
    expect(starts).toHaveLength(2);
    expect(starts[0]).toEqual(expect.arrayContaining(['a', 'b']));
  });
});

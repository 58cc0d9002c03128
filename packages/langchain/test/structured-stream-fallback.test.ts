// A streamed structured call over a fallback list (docs/gateway-protocol.md §4.8 item 5), against
// the emulator: while a listed model is left after the one answering, core holds that model's
// stream to its end and checks it before anything reaches LangChain, so an answer that breaks the
// schema moves on to the next model as `invoke` does — through `.stream()`, `streamEvents` and a
// `createAgent` run streamed for a UI. The rule is core's; the adapter only maps.
import { CLAIMED_MODEL, withClaimedModel } from '@infergate/emulator/testing';
import { createAgent, providerStrategy } from 'langchain';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { GatewayChatModel } from '../src/index';
import { recordingGateway } from './helpers';

const Place = z.object({ city: z.string() });
const QUESTION = 'Where is "Oslo"?';
/** Both models asked, in order, each for a stream. */
const BOTH_STREAMED = [`${CLAIMED_MODEL} (stream)`, 'community/general (stream)'];

/** `community/claimed` (lists json_schema, answers off the schema) falling back to general. */
async function claimedFirst() {
  const { bodies, connection } = await recordingGateway<{ model: string; stream?: boolean }>(
    withClaimedModel(),
  );
  const model = new GatewayChatModel(CLAIMED_MODEL, {
    ...connection,
    fallbackModels: ['community/general'],
  });
  const sent = () => bodies.map((body) => `${body.model}${body.stream ? ' (stream)' : ''}`);
  return { model, sent };
}

describe('a streamed structured call over fallbackModels', () => {
  it('.stream(): an answer that fails the check moves on; only the checked object is yielded', async () => {
    const { model, sent } = await claimedFirst();
    const yielded: unknown[] = [];
    for await (const partial of await model.withStructuredOutput(Place).stream(QUESTION)) {
      yielded.push(partial);
    }
    expect(yielded.at(-1)).toEqual({ city: 'Oslo' });
    // None of the refused answer reached the caller: every partial is the fallback's.
    for (const partial of yielded) expect(partial).toMatchObject({ city: expect.any(String) });
    expect(sent()).toEqual(BOTH_STREAMED);
  });

  it('streamEvents: the run ends with the fallback model’s checked object', async () => {
    const { model, sent } = await claimedFirst();
    let output: unknown;
    const events = model.withStructuredOutput(Place).streamEvents(QUESTION, { version: 'v2' });
    for await (const event of events) {
      if (event.event === 'on_chain_end' && event.data.output !== undefined) {
        output = event.data.output;
      }
    }
    expect(output).toEqual({ city: 'Oslo' });
    expect(sent()).toEqual(BOTH_STREAMED);
  });

  it("createAgent with providerStrategy, streamed as ['values', 'messages']", async () => {
    const { model, sent } = await claimedFirst();
    const agent = createAgent({ model, tools: [], responseFormat: providerStrategy(Place) });
    const input = { messages: [{ role: 'user', content: QUESTION }] };
    let structured: unknown;
    for await (const [mode, value] of await agent.stream(input, {
      streamMode: ['values', 'messages'],
    })) {
      if (mode === 'values' && value.structuredResponse) structured = value.structuredResponse;
    }
    expect(structured).toEqual({ city: 'Oslo' });
    expect(sent()).toEqual(BOTH_STREAMED);
  });
});

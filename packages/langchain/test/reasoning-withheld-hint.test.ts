// A thinking model (DeepSeek V4, Kimi K2) refuses an earlier tool-call turn sent back without its
// reasoning with a 400 in its own words. With `sendReasoning` left out (the default, as
// ChatOpenAI) or `false`, the error `invoke` and `stream` throw names `sendReasoning: true` after
// the server's words (core's rule, `namingSendReasoning`), as a refused `stream_options` names
// `streamUsage: false`; with `sendReasoning: true` nothing is added.
import { isGatewayError } from '@infergate/core';
import type { ScenarioInput } from '@infergate/emulator';
import { caught, emulate } from '@infergate/emulator/testing';
import { AIMessage, HumanMessage, ToolMessage } from '@langchain/core/messages';
import { describe, expect, it } from 'vitest';
import { GatewayChatModel } from '../src/index';
import { intercepting, recordingGateway } from './helpers';

const MODEL = 'dialect/thinking';
const THINKING = {
  models: {
    [MODEL]: { capabilities: ['chat', 'streaming', 'tools'], dialect: 'deepseek-thinking' },
  },
} satisfies ScenarioInput;
const DEEPSEEK = 'The `reasoning_content` in the thinking mode must be passed back to the API.';
const HINT = 'set sendReasoning: true on the model';

/** An agent's second step: the user's ask, the model's tool call (with its reasoning), the tool's result. */
const history = (reasoning?: string) => [
  new HumanMessage('weather for "Kyiv"'),
  new AIMessage({
    content: '',
    tool_calls: [{ id: 'call_1', name: 'weather', args: { city: 'Kyiv' }, type: 'tool_call' }],
    additional_kwargs: reasoning === undefined ? {} : { reasoning_content: reasoning },
  }),
  new ToolMessage({ tool_call_id: 'call_1', name: 'weather', content: 'sunny in Kyiv' }),
];

async function streamed(model: GatewayChatModel, messages: ReturnType<typeof history>) {
  for await (const _ of await model.stream(messages)) {
    // (read to the end)
  }
}

describe("a thinking model's 400 for a turn sent back without its reasoning", () => {
  it.each([undefined, false])(
    'sendReasoning: %s: invoke and stream name sendReasoning: true after the server’s words',
    async (sendReasoning) => {
      const { connection } = await recordingGateway(THINKING);
      const model = new GatewayChatModel(MODEL, { ...connection, sendReasoning, maxRetries: 0 });
      for (const call of [
        () => model.invoke(history('I look it up.')),
        () => streamed(model, history('I look it up.')),
      ]) {
        const error = await caught(call);
        expect(isGatewayError(error) && error.status).toBe(400);
        expect(error.message).toContain(DEEPSEEK);
        expect(error.message).toContain(HINT);
        expect(error.message.indexOf(DEEPSEEK)).toBeLessThan(error.message.indexOf(HINT));
        expect(error.message.split(HINT)).toHaveLength(2);
      }
    },
  );

  it('sendReasoning: true sends the reasoning back: the step is answered', async () => {
    const { connection } = await recordingGateway(THINKING);
    const model = new GatewayChatModel(MODEL, { ...connection, sendReasoning: true });
    const answer = await model.invoke(history('I look it up.'));
    expect(answer.text).toBe('Tool weather returned: sunny in Kyiv');
  });

  it('sendReasoning: true with a turn that has no reasoning: the 400 as the server worded it', async () => {
    const { connection } = await recordingGateway(THINKING);
    const model = new GatewayChatModel(MODEL, {
      ...connection,
      sendReasoning: true,
      maxRetries: 0,
    });
    const error = await caught(() => model.invoke(history()));
    expect(error.message).toContain(DEEPSEEK);
    expect(error.message).not.toContain(HINT);
  });

  it("Kimi K2's words get the hint too; another 400 does not", async () => {
    const gateway = await emulate();
    const refusedWith = (message: string) =>
      intercepting(gateway, async (request) =>
        request.url.endsWith('/chat/completions')
          ? Response.json({ error: { message, type: 'invalid_request_error' } }, { status: 400 })
          : undefined,
      );
    const kimi = new GatewayChatModel('community/general', {
      ...refusedWith(
        'thinking is enabled but reasoning_content is missing in assistant tool call message at index 1',
      ),
      maxRetries: 0,
    });
    expect((await caught(() => kimi.invoke(history('x')))).message).toContain(HINT);
    const other = new GatewayChatModel('community/general', {
      ...refusedWith('temperature must be at most 2'),
      maxRetries: 0,
    });
    expect((await caught(() => other.invoke(history('x')))).message).not.toContain(HINT);
  });
});

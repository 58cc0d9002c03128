// Text parts sent as one string are a line apart ("What is" + "2+2?" is not "What is2+2?"); an AI
// message's are the pieces of one answer, joined as they are.
import { AIMessage, HumanMessage, SystemMessage, ToolMessage } from '@langchain/core/messages';
import { describe, expect, it } from 'vitest';
import { GatewayChatModel } from '../src/index';
import { recordingGateway } from './helpers';

type Body = { messages: { role: string; content: unknown }[] };

const text = (...texts: string[]) => texts.map((part) => ({ type: 'text' as const, text: part }));

describe('GatewayChatModel: text parts sent as one string', () => {
  it('puts the parts of a system, user and tool message a line apart, an AI message’s together', async () => {
    const { bodies, connection } = await recordingGateway<Body>();
    // A model declared to take text only: its user messages' parts are joined too.
    const model = new GatewayChatModel('community/general', {
      ...connection,
      acceptsContentParts: false,
    });
    await model.invoke([
      new SystemMessage({ content: text('Be brief.', 'Answer in French.') }),
      new HumanMessage({ content: text('What is', '2+2?') }),
      new AIMessage({
        content: [
          { type: 'text', text: 'Let me ' },
          { type: 'reasoning', reasoning: 'add them' },
          { type: 'text', text: 'check.' },
        ],
        tool_calls: [{ id: 'c1', name: 'add', args: { a: 2, b: 2 }, type: 'tool_call' }],
      }),
      new ToolMessage({ tool_call_id: 'c1', content: text('sum: 4', 'exact') }),
    ]);
    expect(bodies[0]?.messages.map((message) => message.content)).toEqual([
      'Be brief.\nAnswer in French.',
      'What is\n2+2?',
      'Let me check.',
      'sum: 4\nexact',
    ]);
  });

  it('joins a system message’s parts a line apart also for a model that takes parts', async () => {
    const { bodies, connection } = await recordingGateway<Body>();
    const model = new GatewayChatModel('community/general', connection);
    await model.invoke([
      new SystemMessage({ content: text('Be brief.', 'Answer in French.') }),
      new HumanMessage({ content: text('What is', '2+2?') }),
    ]);
    expect(bodies[0]?.messages).toEqual([
      { role: 'system', content: 'Be brief.\nAnswer in French.' },
      // Parts, as ChatOpenAI sends them: the server reads them apart.
      { role: 'user', content: text('What is', '2+2?') },
    ]);
  });
});

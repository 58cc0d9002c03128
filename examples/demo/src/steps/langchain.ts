import { GatewayChatModel } from '@infergate/langchain';
import { type BaseMessage, HumanMessage, type ToolMessage } from '@langchain/core/messages';
import { tool } from '@langchain/core/tools';
import { z } from 'zod';
import { line, ok, streamPrinter } from '../terminal.ts';
import { expect, type Step } from '../tour.ts';

export const langchainInvoke: Step = {
  title: 'LangChain: invoke',
  what: 'GatewayChatModel.invoke: one answer, with the answering model and token usage.',
  async run(tour) {
    const model = new GatewayChatModel(tour.modelWith(['chat']), { client: tour.client });
    const answer = await model.invoke('In one sentence: what does an inference gateway do?');
    line(String(answer.content));
    const meta = answer.response_metadata;
    expect(String(answer.content).length > 0, 'the answer has text');
    ok(`answered by ${meta.model_name}; ${answer.usage_metadata?.total_tokens ?? '?'} tokens`);
  },
};

export const langchainStream: Step = {
  title: 'LangChain: stream',
  what: 'GatewayChatModel.stream: text chunks written as they arrive.',
  async run(tour) {
    const model = new GatewayChatModel(tour.modelWith(['streaming']), { client: tour.client });
    const printer = streamPrinter('›');
    for await (const chunk of await model.stream('Name three things a gateway checks.')) {
      if (typeof chunk.content === 'string' && chunk.content) printer.write(chunk.content);
    }
    const { chunks } = printer.end();
    expect(chunks > 1, 'the answer arrived in several chunks');
    ok(`${chunks} chunks streamed`);
  },
};

const weather = tool(
  async ({ city }) => JSON.stringify({ city, celsius: city.length + 12, sky: 'clear' }),
  {
    name: 'get_weather',
    description: 'The current weather in a city',
    schema: z.object({ city: z.string().describe('City name') }),
  },
);

export const langchainToolLoop: Step = {
  title: 'LangChain: a tool loop',
  what: 'bindTools, then call the tools the model asks for and send their results back.',
  async run(tour) {
    const model = new GatewayChatModel(tour.modelWith(['tools']), { client: tour.client });
    const withTools = model.bindTools([weather]);
    const messages: BaseMessage[] = [
      new HumanMessage('Use get_weather to check the weather in "Kyiv", then tell me about it.'),
    ];
    let toolCalls = 0;
    for (let turn = 0; turn < 4; turn++) {
      const reply = await withTools.invoke(messages);
      messages.push(reply);
      if (!reply.tool_calls?.length) {
        line(`model: ${String(reply.content)}`);
        break;
      }
      for (const call of reply.tool_calls) {
        toolCalls++;
        line(`model calls ${call.name}(${JSON.stringify(call.args)})`);
        const result: ToolMessage = await weather.invoke(call);
        line(`tool returns ${String(result.content)}`);
        messages.push(result);
      }
    }
    expect(toolCalls > 0, 'the model called the tool');
    ok(`${toolCalls} tool call(s), ${messages.length} messages`);
  },
};

const Ticket = z.object({
  title: z.string().describe('A short title'),
  priority: z.enum(['low', 'normal', 'high']),
  tags: z.array(z.string()).describe('Up to three tags'),
});

export const langchainStructured: Step = {
  title: 'LangChain: structured output',
  what: 'withStructuredOutput(zod schema): the answer parsed and validated as an object.',
  async run(tour) {
    const model = new GatewayChatModel(tour.modelWith(['json_schema']), { client: tour.client });
    const ticket = await model
      .withStructuredOutput(Ticket, { name: 'ticket' })
      .invoke('File a ticket: the invoice export fails for December.');
    line(JSON.stringify(ticket));
    expect(Ticket.safeParse(ticket).success, 'the object matches the schema');
    ok('a valid ticket object');
  },
};

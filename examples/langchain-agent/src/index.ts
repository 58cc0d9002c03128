// An agent: createAgent (package `langchain`) with the gateway's service tools, a custom tool,
// and a zod responseFormat for a typed final answer.
import { createGatewayTools, GatewayChatModel } from '@infergate/langchain';
import { AIMessage, type BaseMessage, ToolMessage } from '@langchain/core/messages';
import { tool } from '@langchain/core/tools';
import { createAgent } from 'langchain';
import { z } from 'zod';
import { runExample } from './run-example.ts';

const MODEL = process.env.INFERGATE_MODEL ?? 'community/general';

// A tool of your own, next to the gateway's: the agent decides which to call.
const lookupOrder = tool(
  async ({ orderId }) =>
    JSON.stringify({ orderId, status: 'shipped', note: 'Доставка очікується у п’ятницю' }),
  {
    name: 'lookup_order',
    description: 'Looks up an order by its id and returns its status and a note for the customer',
    schema: z.object({ orderId: z.string().describe('The order id, e.g. A-1042') }),
  },
);

// The typed answer the agent must end with.
const Reply = z.object({
  orderId: z.string(),
  status: z.string(),
  summary: z.string().describe('One sentence for the customer, in English'),
});

await runExample(async () => {
  // `create` loads the model's capabilities first: createAgent reads them (profile) to choose
  // native structured output (json_schema) or a tool strategy.
  const model = await GatewayChatModel.create(MODEL);
  // translate, ocr, transcribe: the gateway services available right now.
  const gatewayTools = await createGatewayTools();
  console.log(`Model: ${MODEL}`);
  const tools = [...gatewayTools, lookupOrder];
  console.log(`Tools: ${tools.map((t) => t.name).join(', ')}\n`);

  const agent = createAgent({
    model,
    tools,
    responseFormat: Reply,
    systemPrompt:
      'You are a support agent. Look orders up with lookup_order and translate notes that are not in English.',
  });

  const question = 'Where is my order? Please use lookup_order for "A-1042".';
  console.log(`User: ${question}\n`);
  // streamMode 'updates': each step of the agent (a model call, the tool runs) as it finishes.
  let structuredResponse: unknown;
  // The step that writes the structured response returns the whole history again: print each
  // message once.
  const printed = new Set<unknown>();
  for await (const update of await agent.stream(
    { messages: [{ role: 'user', content: question }] },
    { streamMode: 'updates' },
  )) {
    for (const state of Object.values(update)) {
      if (!state || typeof state !== 'object') continue;
      for (const message of ('messages' in state && Array.isArray(state.messages)
        ? state.messages
        : []) as BaseMessage[]) {
        const key = message.id ?? message;
        if (printed.has(key)) continue;
        printed.add(key);
        printMessage(message);
      }
      if ('structuredResponse' in state) structuredResponse = state.structuredResponse;
    }
  }
  if (structuredResponse === undefined) {
    // The tool strategy (a model without json_schema) needs the model to call the agent's
    // structured-output tool; a model that answers in text instead ends the run without it.
    console.log(
      `\nThe run ended without a structured response: ${MODEL} answered in text instead of calling the agent's structured-output tool. Pick a model with json_schema (INFERGATE_MODEL), which createAgent asks natively.`,
    );
    process.exitCode = 1;
    return;
  }
  console.log('\nStructured response:');
  console.log(JSON.stringify(Reply.parse(structuredResponse), null, 2));
});

function printMessage(message: BaseMessage): void {
  if (AIMessage.isInstance(message) && message.tool_calls?.length) {
    for (const call of message.tool_calls)
      console.log(`→ ${call.name}(${JSON.stringify(call.args)})`);
  } else if (ToolMessage.isInstance(message)) {
    console.log(`← ${message.name}: ${message.text}`);
  } else if (AIMessage.isInstance(message) && message.text) {
    console.log(`AI: ${message.text}`);
  }
}

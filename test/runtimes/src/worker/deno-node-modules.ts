// Run by Deno as it is, not bundled: the packages load from node_modules (Deno's own resolution
// of the package.json beside it). One call per surface against the gateway named by the
// arguments; prints one JSON line `{ core, aiSdk, langchain }` with the three answers.
import { createGateway } from '@infergate/ai-sdk';
import { createGatewayClient } from '@infergate/core';
import { GatewayChatModel } from '@infergate/langchain';
import { generateText } from 'ai';

declare const Deno: { args: string[] };

const [baseURL = '', apiKey = ''] = Deno.args;
const model = 'community/general';
const settings = { baseURL, apiKey };
const { response } = await createGatewayClient(settings).chat({
  model,
  messages: [{ role: 'user', content: 'hello' }],
});
const { text } = await generateText({ model: createGateway(settings)(model), prompt: 'hello' });
const answer = await new GatewayChatModel({ model, ...settings }).invoke('hello');
console.log(
  JSON.stringify({
    core: response.choices[0]?.message.content,
    aiSdk: text,
    langchain: answer.text,
  }),
);

// ESM import of the packed @infergate/ai-sdk, used through the installed `ai`.
import assert from 'node:assert/strict';
import { gateway } from '@infergate/ai-sdk';
import { embedMany, generateText, streamText } from 'ai';

const { text } = await generateText({ model: gateway('community/general'), prompt: 'Hello' });
assert.ok(text.length > 0, 'generateText');
let streamed = '';
for await (const delta of streamText({ model: gateway('community/general'), prompt: 'Hi' })
  .textStream) {
  streamed += delta;
}
assert.ok(streamed.length > 0, 'streamText');
const { embeddings } = await embedMany({
  model: gateway.embeddingModel('multilingual-e5-base'),
  values: ['a', 'b'],
});
assert.equal(embeddings.length, 2);
console.log('ai-sdk (esm): ok');

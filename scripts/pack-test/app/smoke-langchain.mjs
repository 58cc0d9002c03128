// ESM import of the packed @infergate/langchain beside the installed @langchain/core.
import assert from 'node:assert/strict';
import { GatewayChatModel, GatewayEmbeddings } from '@infergate/langchain';
import { StringOutputParser } from '@langchain/core/output_parsers';
import { ChatPromptTemplate } from '@langchain/core/prompts';
import { z } from 'zod';

const model = await GatewayChatModel.create('community/general');
const chain = ChatPromptTemplate.fromTemplate('Say {word}')
  .pipe(model)
  .pipe(new StringOutputParser());
let streamed = '';
for await (const piece of await chain.stream({ word: 'hello' })) streamed += piece;
assert.ok(streamed.length > 0, 'streamed chain output');
const [vector] = await new GatewayEmbeddings({ model: 'multilingual-e5-base' }).embedDocuments([
  'pack test',
]);
assert.ok(vector.length > 0, 'embedding');
const film = await model
  .withStructuredOutput(z.object({ title: z.string(), year: z.number() }))
  .invoke('A film');
assert.equal(typeof film.title, 'string', 'withStructuredOutput');
const weather = { name: 'weather', description: 'Weather', schema: z.object({ city: z.string() }) };
const called = await model.bindTools([weather]).invoke('Use weather for "Kyiv"');
assert.deepEqual(called.tool_calls[0]?.args, { city: 'Kyiv' }, 'bindTools');
console.log('langchain (esm): ok');

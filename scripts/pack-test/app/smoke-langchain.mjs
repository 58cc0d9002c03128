// ESM import of the packed @infergate/langchain beside the installed @langchain/core.
import assert from 'node:assert/strict';
import { GatewayChatModel, GatewayEmbeddings } from '@infergate/langchain';
import { StringOutputParser } from '@langchain/core/output_parsers';
import { ChatPromptTemplate } from '@langchain/core/prompts';

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
console.log('langchain (esm): ok');

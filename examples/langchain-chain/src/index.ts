// An LCEL chain: prompt → GatewayChatModel → string parser, streamed to the terminal.
import { GatewayChatModel } from '@infergate/langchain';
import { StringOutputParser } from '@langchain/core/output_parsers';
import { ChatPromptTemplate } from '@langchain/core/prompts';
import { runExample } from './run-example.ts';

const MODEL = process.env.INFERGATE_MODEL ?? 'community/general';

await runExample(async () => {
  const prompt = ChatPromptTemplate.fromMessages([
    ['system', 'You are a concise assistant. Answer in at most three sentences.'],
    ['human', 'Explain {topic} to a {audience}.'],
  ]);
  // `create` loads the catalog first: an id the gateway does not list is refused here
  // (model_not_found). A model that cannot stream is not refused: its answer comes as one piece.
  const model = await GatewayChatModel.create(MODEL, { temperature: 0.2 });
  const chain = prompt.pipe(model).pipe(new StringOutputParser());

  const question = { topic: 'an inference gateway', audience: 'new developer' };
  console.log(`Model: ${MODEL}`);
  console.log(`Question: Explain ${question.topic} to a ${question.audience}.\n`);
  let characters = 0;
  for await (const piece of await chain.stream(question)) {
    process.stdout.write(piece);
    characters += piece.length;
  }
  console.log(`\n\n(${characters} characters streamed)`);
});

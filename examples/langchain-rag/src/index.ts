// Retrieval-augmented generation: GatewayEmbeddings + MemoryVectorStore over a small bundled
// corpus, then an answer that cites the passages it was given.
import { readdir, readFile } from 'node:fs/promises';
import { createGatewayClient, isMultilingualEngine } from '@infergate/core';
import { GatewayChatModel, GatewayEmbeddings } from '@infergate/langchain';
import { MemoryVectorStore } from '@langchain/classic/vectorstores/memory';
import { Document } from '@langchain/core/documents';
import { StringOutputParser } from '@langchain/core/output_parsers';
import { ChatPromptTemplate } from '@langchain/core/prompts';
import { runExample } from './run-example.ts';

const MODEL = process.env.INFERGATE_MODEL ?? 'community/general';
const QUESTION = process.argv[2] ?? 'When are invoices due, and how can I pay them?';

/** One Document per paragraph of each Markdown file, with its file and paragraph number. */
async function loadCorpus(): Promise<Document[]> {
  const folder = new URL('../corpus/', import.meta.url);
  const documents: Document[] = [];
  for (const file of (await readdir(folder)).filter((name) => name.endsWith('.md')).sort()) {
    const text = await readFile(new URL(file, folder), 'utf8');
    const paragraphs = text
      .split(/\n\s*\n/)
      .map((paragraph) => paragraph.replace(/\s+/g, ' ').trim())
      .filter((paragraph) => paragraph && !paragraph.startsWith('#'));
    paragraphs.forEach((pageContent, index) => {
      documents.push(
        new Document({ pageContent, metadata: { source: file, paragraph: index + 1 } }),
      );
    });
  }
  return documents;
}

await runExample(async () => {
  // Pick the engine from GET /capabilities (the multilingual one when offered), and keep it for
  // indexing and searching: vectors of different engines do not compare.
  const client = createGatewayClient();
  const engines = await client.embeddingEngines();
  const asked = process.env.INFERGATE_EMBEDDING_ENGINE?.trim();
  const engine = asked
    ? engines.find((e) => e.id === asked)
    : (engines.find((e) => isMultilingualEngine(e)) ?? engines[0]);
  if (!engine) {
    // A mistyped engine is named, not swapped for another: the index would be built on an engine
    // the reader did not ask for.
    const offered = engines.map((e) => e.id).join(', ') || 'none right now';
    throw new Error(
      asked
        ? `INFERGATE_EMBEDDING_ENGINE=${asked} is not an engine this gateway offers (${offered})`
        : 'The gateway offers no embedding engine right now',
    );
  }
  const embeddings = new GatewayEmbeddings({ model: engine.id, client });
  const documents = await loadCorpus();
  // embedDocuments sends input_type "document"; embedQuery (used by the search) sends "query".
  const store = await MemoryVectorStore.fromDocuments(documents, embeddings);
  console.log(`Indexed ${documents.length} passages with ${engine.id}.\n`);

  const found = await store.similaritySearchWithScore(QUESTION, 3);
  console.log(`Question: ${QUESTION}\n`);
  console.log('Retrieved:');
  found.forEach(([doc, score], i) => {
    console.log(
      `  [${i + 1}] ${doc.metadata.source}#${doc.metadata.paragraph} (${score.toFixed(3)})`,
    );
  });

  const prompt = ChatPromptTemplate.fromMessages([
    [
      'system',
      'Answer only from the numbered passages below and cite them like [1]. ' +
        'Say so when they do not contain the answer.\n\n{context}',
    ],
    ['human', '{question}'],
  ]);
  const context = found.map(([doc], i) => `[${i + 1}] ${doc.pageContent}`).join('\n\n');
  const chain = prompt.pipe(new GatewayChatModel(MODEL, { client })).pipe(new StringOutputParser());

  process.stdout.write('\nAnswer: ');
  for await (const piece of await chain.stream({ context, question: QUESTION })) {
    process.stdout.write(piece);
  }
  console.log('\n\nSources:');
  found.forEach(([doc], i) => {
    console.log(`  [${i + 1}] ${doc.metadata.source}: ${doc.pageContent}`);
  });
});

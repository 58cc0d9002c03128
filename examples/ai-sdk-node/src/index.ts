// The AI SDK with the infergate provider, in Node: generateText, streamText with tools and
// stopWhen, Output.object, embedMany, transcribe.
import { readFile } from 'node:fs/promises';
import { gateway } from '@infergate/ai-sdk';
import {
  cosineSimilarity,
  embed,
  embedMany,
  generateText,
  Output,
  stepCountIs,
  streamText,
  tool,
  transcribe,
} from 'ai';
import { z } from 'zod';
import { runExample } from './run-example.ts';

const MODEL = process.env.INFERGATE_MODEL ?? 'community/general';

await runExample(async () => {
  // 1. generateText: one answer, and which model gave it.
  console.log('## generateText');
  const first = await generateText({
    model: gateway(MODEL),
    prompt: 'Say hello to a new infergate user.',
  });
  console.log(first.text);
  console.log(
    `(answered by ${first.finalStep.response.modelId}, ${first.usage.totalTokens} tokens)\n`,
  );

  // 2. streamText with a tool: text and tool calls as they stream, up to three steps.
  console.log('## streamText with tools');
  const result = streamText({
    model: gateway(MODEL),
    tools: {
      convert_currency: tool({
        description: 'Converts an amount of money between currencies',
        inputSchema: z.object({
          amount: z.number().describe('The amount to convert'),
          from: z.string().describe('ISO code, e.g. EUR'),
          to: z.string().describe('ISO code, e.g. UAH'),
        }),
        execute: async ({ amount, from, to }) => ({ amount, from, to, result: amount * 45.1 }),
      }),
    },
    stopWhen: stepCountIs(3),
    prompt: 'Use convert_currency to turn 120 EUR into UAH, then tell me the result.',
  });
  for await (const part of result.stream) {
    if (part.type === 'text-delta') process.stdout.write(part.text);
    else if (part.type === 'tool-call') {
      console.log(`→ ${part.toolName}(${JSON.stringify(part.input)})`);
    } else if (part.type === 'tool-result') console.log(`← ${JSON.stringify(part.output)}`);
    else if (part.type === 'error') throw part.error;
  }
  console.log(`\n(${(await result.steps).length} steps, finish: ${await result.finishReason})\n`);

  // 3. Output.object: a typed object (sent as a json_schema response format).
  console.log('## Output.object');
  const { output } = await generateText({
    model: gateway(MODEL),
    output: Output.object({
      schema: z.object({
        city: z.string(),
        country: z.string(),
        sights: z.array(z.string()).min(1).max(3),
      }),
    }),
    prompt: 'Suggest a city for a weekend trip.',
  });
  console.log(output, '\n');

  // 4. embedMany + embed: rank three sentences against a question.
  console.log('## embedMany');
  const [engine] = (await gateway.services()).find((s) => s.id === 'embeddings')?.engines ?? [];
  if (!engine) throw new Error('No embedding engine is available right now');
  const model = gateway.embeddingModel(engine.id);
  const sentences = [
    'The train to Lviv leaves at 7:40.',
    'Our office has a new coffee machine.',
    'Tickets for the Lviv train are sold at the station.',
  ];
  const { embeddings } = await embedMany({ model, values: sentences });
  const { embedding: question } = await embed({
    model,
    value: 'When does the Lviv train leave?',
    providerOptions: { infergate: { inputType: 'query' } },
  });
  const ranked = sentences
    .map((text, i) => ({ text, score: cosineSimilarity(question, embeddings[i]!) }))
    .sort((a, b) => b.score - a.score);
  for (const { text, score } of ranked) console.log(`${score.toFixed(3)}  ${text}`);
  console.log(`(${engine.id}, ${embeddings[0]?.length} dimensions)\n`);

  // 5. transcribe: speech to text on a bundled WAV file (a short tone; the emulator reads the text
  // it should hear from a comment in the file).
  console.log('## transcribe');
  const heard = await transcribe({
    model: gateway.transcriptionModel(),
    audio: await readFile(new URL('../assets/memo.wav', import.meta.url)),
  });
  console.log(`${heard.text} (${heard.language}, ${heard.durationInSeconds} s)`);
});

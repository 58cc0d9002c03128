import {
  cosineSimilarity,
  embed,
  embedMany,
  generateText,
  Output,
  stepCountIs,
  streamText,
  tool,
} from 'ai';
import { z } from 'zod';
import { line, ok, streamPrinter, style } from '../terminal.ts';
import { expect, type Step, StepSkipped } from '../tour.ts';

const weather = tool({
  description: 'The current weather in a city',
  inputSchema: z.object({ city: z.string().describe('City name') }),
  execute: async ({ city }) => ({ city, celsius: city.length + 12, sky: 'clear' }),
});

export const aiSdkStreamTools: Step = {
  title: 'AI SDK: streamText with tools',
  what: 'streamText + tools + stopWhen: text and tool calls streamed, the tool run between steps.',
  async run(tour) {
    const modelId = tour.modelWith(['streaming', 'tools']);
    const result = streamText({
      model: tour.gateway(modelId),
      tools: { get_weather: weather },
      stopWhen: stepCountIs(3),
      prompt: 'Call get_weather for "Lviv" and summarise the result in one sentence.',
    });
    const printer = streamPrinter('›');
    let toolCalls = 0;
    for await (const part of result.stream) {
      if (part.type === 'text-delta') printer.write(part.text);
      else if (part.type === 'tool-call') {
        toolCalls++;
        printer.note(`→ ${part.toolName}(${JSON.stringify(part.input)})`);
      } else if (part.type === 'tool-result') {
        printer.note(`← ${JSON.stringify(part.output)}`);
      } else if (part.type === 'error') throw part.error;
    }
    printer.end();
    const steps = await result.steps;
    expect(toolCalls > 0, 'the model called the tool');
    expect((await result.text).length > 0, 'the last step has text');
    ok(`${steps.length} steps, ${toolCalls} tool call(s), finish: ${await result.finishReason}`);
  },
};

/** Models that reason: the emulator's `community/reasoner`, or a known reasoning family. */
const REASONING_MODEL = /reason|deepseek-r1|qwq|magistral|gpt-oss/i;

export const aiSdkReasoning: Step = {
  title: 'AI SDK: reasoning',
  what: 'streamText on a reasoning model: its reasoning (reasoning_content on the wire) streamed before the answer.',
  async run(tour) {
    const model = tour.catalog.find(
      (m) => REASONING_MODEL.test(m.id) && m.capabilities.includes('streaming'),
    );
    if (!model) throw new StepSkipped('no reasoning model is listed');
    const result = streamText({
      model: tour.gateway(model.id),
      prompt: 'Is 7 a prime number? Answer in one short sentence.',
    });
    const printer = streamPrinter('›');
    for await (const part of result.stream) {
      if (part.type === 'reasoning-delta') printer.write(style.dim(part.text));
      else if (part.type === 'reasoning-end') printer.note('(end of reasoning)');
      else if (part.type === 'text-delta') printer.write(part.text);
      else if (part.type === 'error') throw part.error;
    }
    printer.end();
    const reasoning = (await result.finalStep).reasoningText ?? '';
    expect(reasoning.length > 0, 'the model sent its reasoning');
    const usage = await result.usage;
    ok(
      `${model.id}: ${reasoning.length} characters of reasoning, ` +
        `${usage.outputTokenDetails.reasoningTokens ?? '?'} reasoning token(s)`,
    );
  },
};

export const aiSdkOutputObject: Step = {
  title: 'AI SDK: Output.object',
  what: 'generateText with Output.object: a typed object, sent as a json_schema response format.',
  async run(tour) {
    const Recipe = z.object({
      name: z.string(),
      minutes: z.number().int().min(1).max(240),
      ingredients: z.array(z.string()).min(1).max(5),
    });
    const { output } = await generateText({
      model: tour.gateway(tour.modelWith(['json_schema'])),
      output: Output.object({ schema: Recipe }),
      prompt: 'A quick recipe for borscht.',
    });
    line(JSON.stringify(output));
    expect(Recipe.safeParse(output).success, 'the object matches the schema');
    ok(`${output.name}: ${output.ingredients.length} ingredient(s), ${output.minutes} min`);
  },
};

const CORPUS = [
  'Invoices are due thirty days after the delivery date.',
  'The office is closed on public holidays and weekends.',
  'Refunds are paid to the original card within five working days.',
  'Support answers emails in English and Ukrainian.',
  'The warehouse ships orders every weekday at noon.',
];

export const embeddingsSearch: Step = {
  title: 'Embeddings and similarity search',
  what: 'embedMany over five documents, embed the query (input_type: query), rank by cosine.',
  async run(tour) {
    const services = await tour.client.services();
    const engines = services.find((service) => service.id === 'embeddings')?.engines ?? [];
    const engine =
      engines.find((candidate) => /multilingual/i.test(`${candidate.id} ${candidate.name}`)) ??
      engines[0];
    if (!engine) throw new StepSkipped('no embedding engine is available');
    const model = tour.gateway.embeddingModel(engine.id);
    const { embeddings } = await embedMany({ model, values: CORPUS });
    const query = 'When are invoices due for payment?';
    const { embedding } = await embed({
      model,
      value: query,
      providerOptions: { infergate: { inputType: 'query' } },
    });
    const ranked = CORPUS.map((text, i) => ({
      text,
      score: cosineSimilarity(embedding, embeddings[i]!),
    }))
      .sort((a, b) => b.score - a.score)
      .slice(0, 3);
    line(`engine ${engine.id}, ${embeddings[0]?.length} dimensions; query: ${query}`);
    for (const { text, score } of ranked) line(`${score.toFixed(3)}  ${text}`);
    expect(embeddings.length === CORPUS.length, 'one vector per document');
    ok(`best match: "${ranked[0]?.text}"`);
  },
};

import { UnsupportedModelCapabilityError } from '@infergate/ai-sdk';
import { GatewayChatModel } from '@infergate/langchain';
import { generateText, tool } from 'ai';
import { z } from 'zod';
import { line, ok, progressBar } from '../terminal.ts';
import { expect, type Step } from '../tour.ts';

export const offlineFallback: Step = {
  title: 'An offline own model, answered by the pool',
  what: 'Ask for my/laptop-model (offline): the key’s offline setting lets a pool model answer.',
  emulatorOnly: 'it needs an offline my/... model with a pool fallback, as the emulator has',
  async run(tour) {
    const model = new GatewayChatModel('my/laptop-model', { client: tour.client });
    const answer = await model.invoke('Are you my laptop?');
    const meta = answer.response_metadata;
    line(`requested: ${meta.requested_model}`);
    line(`served by: ${meta.model_name}   (X-Service-Model)`);
    line(`answer:    ${String(answer.content)}`);
    expect(meta.fallback === true, 'the answer came from another model');
    ok('fallback reported: requested and answering model differ');
  },
};

export const capabilityRefusal: Step = {
  title: 'A capability refusal, before sending',
  what: 'Tools on a model without the tools capability: refused in this process, nothing sent.',
  async run(tour) {
    const modelId = tour.modelWithout('tools');
    const chatRequests = () =>
      tour.emulator
        ? tour.emulator.counters.requests.chat
        : tour.requests.sent('/chat/completions');
    const before = chatRequests();
    let refusal: unknown;
    try {
      await generateText({
        model: tour.gateway(modelId),
        tools: {
          get_weather: tool({
            description: 'The current weather in a city',
            inputSchema: z.object({ city: z.string() }),
          }),
        },
        prompt: 'Use get_weather for "Odesa".',
      });
    } catch (error) {
      refusal = error;
    }
    const after = chatRequests();
    expect(
      refusal instanceof UnsupportedModelCapabilityError,
      `an UnsupportedModelCapabilityError (got ${String(refusal)})`,
    );
    line(`${refusal.name}: ${refusal.message}`);
    const counter = tour.emulator ? 'emulator chat counter' : 'chat requests sent';
    line(`${counter}: ${before} before, ${after} after`);
    expect(after === before, 'no chat request was sent');
    ok(`refused ${modelId} for missing "${refusal.missing.join(', ')}", 0 requests sent`);
  },
};

export const rateLimitRetry: Step = {
  title: 'A 429, absorbed',
  what: 'The emulator answers one 429 (Retry-After: 1): core waits that long and retries.',
  emulatorOnly: 'it injects a 429 with the emulator’s fault injection',
  async run(tour) {
    const emulator = tour.emulator!;
    emulator.injectFault({ fault: 'rate_limit', endpoint: 'chat', times: 1, retryAfter: 1 });
    const rejectionsBefore = emulator.counters.concurrencyRejections;
    tour.requests.reset();
    const started = performance.now();
    const model = new GatewayChatModel(tour.modelWith(['chat']), { client: tour.client });
    const answer = await model.invoke('Are you there?');
    const waited = Math.round(performance.now() - started);
    line(`statuses seen by the client: ${tour.requests.statuses.join(' → ')}`);
    line(`answer after ${waited} ms: ${String(answer.content)}`);
    expect(tour.requests.statuses[0] === 429, 'the first attempt got a 429');
    expect(emulator.counters.concurrencyRejections === rejectionsBefore + 1, 'one 429 was sent');
    ok('one 429, one retry after Retry-After, one answer: the caller never saw the 429');
  },
};

export const parallelBudget: Step = {
  title: '20 calls at once, never more than 4 in flight',
  what: 'LangChain and the AI SDK on the same key share one budget of 4: no call gets a 429.',
  async run(tour) {
    const modelId = tour.modelWith(['chat']);
    const langchainModel = new GatewayChatModel(modelId, { client: tour.client });
    tour.requests.reset();
    tour.emulator?.resetCounters();
    const total = 20;
    let done = 0;
    const bar = progressBar(total);
    const track = async (call: Promise<unknown>) => {
      await call;
      done++;
      bar.update(done, `in flight now: ${tour.requests.inFlight}`);
    };
    const calls = Array.from({ length: total }, (_, i) => {
      const prompt = `Parallel call ${i + 1}: reply with a short greeting.`;
      if (i % 2 === 0) return track(langchainModel.invoke(prompt));
      return track(generateText({ model: tour.gateway(modelId), prompt }));
    });
    await Promise.all(calls);
    const maxInFlight = tour.emulator
      ? (tour.emulator.counters.maxInflight[tour.apiKey] ?? 0)
      : tour.requests.maxInFlight;
    const rejected = tour.requests.statuses.filter((status) => status === 429).length;
    bar.end(`max in flight: ${maxInFlight}, 429s: ${rejected}`);
    expect(maxInFlight <= 4, 'never more than 4 requests in flight');
    expect(rejected === 0, 'no 429');
    ok(`${total} answers (half LangChain invoke, half AI SDK generateText)`);
  },
};

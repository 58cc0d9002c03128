import { createGateway } from '@infergate/ai-sdk';
import { budgetSeen, emulate } from '@infergate/emulator/testing';
import { GatewayChatModel } from '@infergate/langchain';
import { generateText, streamText } from 'ai';
import { expect, it } from 'vitest';

// One process, one key, two frameworks: LangChain and the AI SDK each build their own gateway
// client, and still share the key's budget of 4 requests in flight.
it('50 mixed LangChain and AI SDK calls on one key never exceed 4 in flight and get no 429', async () => {
  // Latency before the headers keeps each request in flight long enough for all 4 to overlap,
  // even when a loaded CI machine is slow between one request's end and the next one's start
  // (at 5–25 ms, a run under load once peaked at 3).
  const server = await emulate({ as: 'http', scenario: { latencyMs: { min: 80, max: 120 } } });
  try {
    const connection = { baseURL: server.baseURL, apiKey: server.apiKey };
    const langchain = new GatewayChatModel('community/general', connection);
    const infergate = createGateway(connection);
    const calls = Array.from({ length: 50 }, async (_, i) => {
      const prompt = `call number ${i}`;
      switch (i % 4) {
        case 0:
          return String((await langchain.invoke(prompt)).content);
        case 1: {
          let text = '';
          for await (const chunk of await langchain.stream(prompt)) text += String(chunk.content);
          return text;
        }
        case 2:
          return (await generateText({ model: infergate('community/general'), prompt })).text;
        default:
          return await streamText({ model: infergate('community/general'), prompt }).text;
      }
    });
    const answers = await Promise.all(calls);

    expect(answers).toEqual(answers.map((_, i) => `Echo: call number ${i}`));
    // 50 chat requests (each client's catalog reads, GET /models, besides), none refused, 4 at once.
    expect(budgetSeen(server)).toEqual({ chat: 50, concurrencyRejections: 0, maxInflight: 4 });
  } finally {
    await server.close();
  }
});

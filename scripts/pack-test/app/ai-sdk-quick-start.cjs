// The README's AI SDK quick start, run by smoke-ai-sdk.mjs (ESM entries) and smoke-ai-sdk.cjs
// (CommonJS entries) with the modules they loaded: `ai` as installed (6.x or 7.x) and our entry
// for that major (`@infergate/ai-sdk` for ai@7, `@infergate/ai-sdk/v6` for ai@6).
const assert = require('node:assert/strict');

/**
 * Our entries to run under the installed `ai`: `/v6` (V3 models) under ai@6; under ai@7 the main
 * entry, and `/v6` too, which every ai@7 accepts (it wraps V3 models).
 */
function entriesFor(aiVersion) {
  const major = Number(aiVersion.split('.')[0]);
  const entries =
    major >= 7 ? ['@infergate/ai-sdk', '@infergate/ai-sdk/v6'] : ['@infergate/ai-sdk/v6'];
  return { major, entries };
}

/** A fetch that counts the chat requests sent, so refusals and retries can be checked. */
function countingFetch() {
  const counts = { chat: 0 };
  const counted = (input, init) => {
    if (String(input instanceof Request ? input.url : input).endsWith('/chat/completions'))
      counts.chat++;
    return fetch(input, init);
  };
  return { counts, fetch: counted };
}

async function quickStart({ ai, infergate, z, wavWithSpeech, label }) {
  const { createGateway, UnsupportedModelCapabilityError } = infergate;
  const { counts, fetch } = countingFetch();
  const gateway = createGateway({ fetch });
  const weather = ai.tool({
    description: 'Current weather for a city',
    inputSchema: z.object({ city: z.string() }),
    execute: async ({ city }) => ({ city, celsius: 21 }),
  });

  // streamText with tools and stopWhen: the tool loop runs, usage stays numbers.
  const streamed = ai.streamText({
    model: gateway('community/general'),
    tools: { weather },
    stopWhen: ai.stepCountIs(3),
    prompt: 'Use weather for "Kyiv"',
  });
  let text = '';
  for await (const delta of streamed.textStream) text += delta;
  assert.equal(text, 'Tool weather returned: {"city":"Kyiv","celsius":21}', 'tool loop');
  assert.equal((await streamed.steps)[0].toolCalls[0].toolName, 'weather');
  assert.equal(typeof (await streamed.totalUsage).totalTokens, 'number', 'usage is a number');

  // generateText with Output.object.
  const structured = await ai.generateText({
    model: gateway('community/general'),
    output: ai.Output.object({ schema: z.object({ title: z.string(), year: z.number() }) }),
    prompt: 'A film',
  });
  assert.equal(typeof structured.output.title, 'string', 'Output.object');

  // Reasoning and the served model (an own model answered by the pool).
  const reasoned = await ai.generateText({
    model: gateway('community/reasoner'),
    prompt: 'hello there',
  });
  assert.ok(reasoned.reasoningText.length > 0, 'reasoning');
  const served = await ai.generateText({ model: gateway('my/laptop-model'), prompt: 'where am I' });
  assert.equal(served.response.modelId, 'pool-a/llama-3-8b', 'served model');
  assert.equal(served.providerMetadata.infergate.servedModel, 'pool-a/llama-3-8b');

  // embedMany and transcription (`experimental_transcribe` is the name every ai@6 has).
  const { embeddings } = await ai.embedMany({
    model: gateway.embeddingModel('all-minilm-l6-v2'),
    values: ['a', 'b'],
  });
  assert.equal(embeddings.length, 2, 'embedMany');
  const transcribe = ai.transcribe ?? ai.experimental_transcribe;
  const transcript = await transcribe({
    model: gateway.transcriptionModel(),
    audio: wavWithSpeech('hello from the pack test'),
  });
  assert.equal(transcript.text, 'hello from the pack test', 'transcription');

  // A capability refusal before sending: a chat-only model asked for tools.
  const before = counts.chat;
  const refused = await ai
    .generateText({ model: gateway('community/plain'), tools: { weather }, prompt: 'hi' })
    .catch((error) => error);
  assert.ok(UnsupportedModelCapabilityError.isInstance(refused), String(refused));
  assert.equal(counts.chat, before, 'refused before sending');

  // A typed error, and `ai` owning the retries: 2 retries = 3 requests, then RetryError.
  const fault = { 'x-emulator-fault': 'rate_limit; retryAfter=0' };
  const once = await ai
    .generateText({
      model: gateway('community/general'),
      prompt: 'hi',
      maxRetries: 0,
      headers: fault,
    })
    .catch((error) => error);
  assert.ok(ai.APICallError.isInstance(once) && once.statusCode === 429, String(once));
  const start = counts.chat;
  const retried = await ai
    .generateText({
      model: gateway('community/general'),
      prompt: 'hi',
      maxRetries: 2,
      headers: fault,
    })
    .catch((error) => error);
  assert.ok(ai.RetryError.isInstance(retried), String(retried));
  assert.equal(counts.chat - start, 3, 'ai retried twice, core not at all');

  // A provider registry resolves our models without re-wrapping them.
  const registry = ai.createProviderRegistry({ infergate: gateway });
  const viaRegistry = await ai.generateText({
    model: registry.languageModel('infergate:community/general'),
    prompt: 'hi',
  });
  assert.equal(typeof viaRegistry.usage.inputTokens, 'number', 'registry usage');
  await chatRoute({ ai, gateway });
  console.log(`ai-sdk (${label}): ok`);
}

/**
 * What `useChat` does, without a browser: `ai`'s DefaultChatTransport posts the UI messages to a
 * Next.js-style route handler (called in-process through the transport's `fetch`), which answers
 * with the UI message stream of `streamText`; the stream is read back into the assistant message.
 */
async function chatRoute({ ai, gateway }) {
  const POST = async (request) => {
    const { messages } = await request.json();
    const result = ai.streamText({
      model: gateway('community/general'),
      messages: await ai.convertToModelMessages(messages),
    });
    return result.toUIMessageStreamResponse();
  };
  const transport = new ai.DefaultChatTransport({
    api: 'http://app.test/api/chat',
    fetch: (input, init) => POST(new Request(input, init)),
  });
  const stream = await transport.sendMessages({
    chatId: 'pack-test',
    messageId: undefined,
    trigger: 'submit-message',
    abortSignal: undefined,
    messages: [{ id: 'u1', role: 'user', parts: [{ type: 'text', text: 'hello route' }] }],
  });
  let last;
  for await (const message of ai.readUIMessageStream({ stream })) last = message;
  assert.equal(textOf(last), 'Echo: hello route', 'the UI message stream of the route handler');

  // `useChat` keeps its state in @ai-sdk/react's Chat (the package of the installed major; it
  // brings its own `ai`): a message sent through the transport gets the route's answer.
  const { Chat } = require('@ai-sdk/react');
  const chat = new Chat({ transport });
  await chat.sendMessage({ text: 'hello chat' });
  assert.equal(chat.status, 'ready', String(chat.error));
  assert.equal(textOf(chat.messages.at(-1)), 'Echo: hello chat', "@ai-sdk/react's Chat");
}

function textOf(message) {
  return message.parts
    .filter((part) => part.type === 'text')
    .map((part) => part.text)
    .join('');
}

module.exports = { entriesFor, quickStart };

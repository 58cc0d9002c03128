/**
 * B1 — non-streaming chat: the client's cost of one call. Against a canned-response fetch (pure
 * client cost) and against the emulator's in-process fetch handler (the same plus a real gateway
 * answering).
 */
import { createEmulator, DEFAULT_KEYS } from '@infergate/emulator';
import { generateText } from 'ai';
import { CANNED_BASE_URL, CANNED_KEY, CHAT_MODEL, cannedFetch } from './canned-gateway.mjs';
import {
  chatOpenAI,
  coreClient,
  FloorChatModel,
  floorLanguageModel,
  openaiCompatible,
  oursAiSdk,
  oursChatModel,
} from './contenders.mjs';
import { fmtMicros, fmtRatio, interleaved, settle } from './harness.mjs';
import { check, target } from './results.mjs';

const PROMPT = 'Say hello in one short sentence.';

function cases(connection) {
  const { baseURL, apiKey, fetch } = connection;
  const core = coreClient(connection);
  const ours = oursAiSdk(connection);
  const oc = openaiCompatible(connection);
  const oursLc = oursChatModel(connection, CHAT_MODEL);
  const lcOpenAI = chatOpenAI(connection, CHAT_MODEL);
  const floorModel = floorLanguageModel();
  const floorLc = new FloorChatModel();
  const request = { model: CHAT_MODEL, messages: [{ role: 'user', content: PROMPT }] };
  return [
    {
      name: 'raw fetch + JSON.parse',
      run: async () => {
        const response = await fetch(`${baseURL}/chat/completions`, {
          method: 'POST',
          headers: { authorization: `Bearer ${apiKey}`, 'content-type': 'application/json' },
          body: JSON.stringify(request),
        });
        const data = JSON.parse(await response.text());
        if (!data.choices) throw new Error('raw: no choices');
      },
    },
    { name: 'core client.chat', run: () => core.chat(request) },
    {
      name: 'ai floor (do-nothing V4 model)',
      run: () => generateText({ model: floorModel, prompt: PROMPT }),
    },
    {
      name: 'generateText + @infergate/ai-sdk',
      run: () => generateText({ model: ours(CHAT_MODEL), prompt: PROMPT }),
    },
    {
      name: 'generateText + @ai-sdk/openai-compatible',
      run: () => generateText({ model: oc.chatModel(CHAT_MODEL), prompt: PROMPT }),
    },
    { name: 'LangChain floor (do-nothing BaseChatModel)', run: () => floorLc.invoke(PROMPT) },
    { name: 'GatewayChatModel.invoke', run: () => oursLc.invoke(PROMPT) },
    { name: 'ChatOpenAI.invoke', run: () => lcOpenAI.invoke(PROMPT) },
  ];
}

export async function runB1({ quick }) {
  const rounds = quick ? 7 : 21;
  const iterations = quick ? 40 : 100;
  const sections = [];
  const modes = [
    ['canned fetch', { baseURL: CANNED_BASE_URL, apiKey: CANNED_KEY, fetch: cannedFetch() }],
    [
      'emulator fetch handler',
      {
        baseURL: 'http://emulator.test/v1',
        apiKey: DEFAULT_KEYS.full,
        fetch: createEmulator().fetch,
      },
    ],
  ];
  const medians = {};
  for (const [mode, connection] of modes) {
    const list = cases(connection);
    // One call each first: validates the setup and fills the catalog caches.
    for (const c of list) await c.run();
    await settle();
    const result = await interleaved(list, { rounds, iterations, warmupMs: quick ? 3000 : 10_000 });
    medians[mode] = result;
    const raw = result['raw fetch + JSON.parse'];
    const aiFloor = result['ai floor (do-nothing V4 model)'];
    const lcFloor = result['LangChain floor (do-nothing BaseChatModel)'];
    const rows = list.map(({ name }) => {
      const value = result[name];
      let net = '';
      if (name.startsWith('generateText')) net = fmtMicros(value - aiFloor);
      if (name.endsWith('.invoke')) net = fmtMicros(value - lcFloor);
      return {
        case: name,
        'median / call': fmtMicros(value),
        'minus framework floor': net,
        'vs raw': fmtRatio(value / raw),
      };
    });
    sections.push({
      title: `B1 non-streaming chat, ${mode} (median of ${rounds} rounds × ${iterations} calls)`,
      rows,
    });
  }
  // Core against raw fetch alone, without a forced GC between batches (see `interleaved`): the
  // cost core adds to a call in a running app. The table above forces a GC before every batch so
  // that the frameworks' garbage is not billed to the next case; that shrinks the young
  // generation, and a 100-call batch of a light case then pays for it (raw fetch measured ~20 µs
  // per call there, ~9 µs here).
  const canned = cases(modes[0][1]).filter(({ name }) =>
    ['raw fetch + JSON.parse', 'core client.chat'].includes(name),
  );
  const pair = await interleaved(canned, {
    rounds,
    iterations: iterations * 10,
    warmupMs: quick ? 2000 : 5000,
    collectBetween: false,
  });
  sections.push({
    title: `B1 core vs raw fetch alone, canned fetch, no forced GC (median of ${rounds} rounds × ${iterations * 10} calls)`,
    rows: canned.map(({ name }) => ({
      case: name,
      'median / call': fmtMicros(pair[name]),
      'vs raw': fmtRatio(pair[name] / pair['raw fetch + JSON.parse']),
    })),
  });
  const c = medians['canned fetch'];
  const oursAi = c['generateText + @infergate/ai-sdk'];
  const ocAi = c['generateText + @ai-sdk/openai-compatible'];
  const oursLc = c['GatewayChatModel.invoke'];
  const lcAnchor = c['ChatOpenAI.invoke'];
  const coreRatio = pair['core client.chat'] / pair['raw fetch + JSON.parse'];
  const aiRatio = oursAi / ocAi;
  const lcRatio = oursLc / lcAnchor;
  const targets = [
    target(
      'B1.generateText',
      'generateText + @infergate/ai-sdk: time per call vs + @ai-sdk/openai-compatible (canned fetch)',
      [check('ours / anchor', aiRatio, '<=', 0.5, 'ratio')],
    ),
    target(
      'B1.invoke',
      'GatewayChatModel.invoke: time per call vs ChatOpenAI.invoke (canned fetch)',
      [check('ours / anchor', lcRatio, '<=', 0.5, 'ratio')],
    ),
    target(
      'B1.core',
      'core client.chat: time per call vs raw fetch + JSON.parse (canned fetch, the two alone, no forced GC)',
      [check('core / raw', coreRatio, '<=', 1.3, 'ratio')],
    ),
  ];
  return {
    sections,
    targets,
    parameters: { rounds, iterations, aloneIterations: iterations * 10 },
    data: { ...medians, 'core vs raw alone (canned fetch)': pair },
  };
}

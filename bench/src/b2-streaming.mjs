/**
 * B2 — streaming: chunks per second while consuming one long stream. Providers are measured at
 * `doStream` level (the provider's own cost) and through `streamText` (what users call, dominated
 * by `ai`'s pipeline); the LangChain models through `.stream()`. The AI SDK's mapping is judged
 * against core's `chatStream` read in the same run on the same body (`vs core`): the raw reader's
 * column is printed too, but its speed moves with the machine more than ours does.
 */
import { createEmulator, DEFAULT_KEYS } from '@infergate/emulator';
import { streamText } from 'ai';
import { createParser } from 'eventsource-parser';
import {
  CANNED_BASE_URL,
  CANNED_KEY,
  CHAT_MODEL,
  cannedFetch,
  ssePieces,
} from './canned-gateway.mjs';
import {
  chatOpenAI,
  coreClient,
  FloorChatModel,
  floorLanguageModel,
  openaiCompatible,
  oursAiSdk,
  oursChatModel,
} from './contenders.mjs';
import { fmtRate, fmtRatio, interleaved, median, settle } from './harness.mjs';
import { check, context, target } from './results.mjs';

async function drain(readable) {
  const reader = readable.getReader();
  let parts = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) return parts;
    if (value.type === 'error') throw value.error;
    parts++;
  }
}

function cases(connection, prompt, chunks, withFloors) {
  const { baseURL, apiKey, fetch } = connection;
  const core = coreClient(connection);
  const ours = oursAiSdk(connection);
  const oc = openaiCompatible(connection);
  const oursLc = oursChatModel(connection, CHAT_MODEL);
  const lcOpenAI = chatOpenAI(connection, CHAT_MODEL);
  const request = { model: CHAT_MODEL, messages: [{ role: 'user', content: prompt }] };
  const v4Prompt = [{ role: 'user', content: [{ type: 'text', text: prompt }] }];
  const list = [
    {
      name: 'raw reader + eventsource-parser + JSON.parse',
      run: async () => {
        const response = await fetch(`${baseURL}/chat/completions`, {
          method: 'POST',
          headers: { authorization: `Bearer ${apiKey}`, 'content-type': 'application/json' },
          body: JSON.stringify({ ...request, stream: true }),
        });
        const reader = response.body.getReader();
        const text = new TextDecoder();
        let events = 0;
        const parser = createParser({
          onEvent: (e) => {
            if (e.data !== '[DONE]') JSON.parse(e.data);
            events++;
          },
        });
        for (;;) {
          const { done, value } = await reader.read();
          if (done) break;
          parser.feed(text.decode(value, { stream: true }));
        }
        if (events < chunks) throw new Error(`raw: ${events} events`);
      },
    },
    {
      name: 'core chatStream',
      run: async () => {
        const stream = await core.chatStream(request);
        for await (const _event of stream);
      },
    },
    {
      name: '@infergate/ai-sdk doStream',
      run: async () => drain((await ours(CHAT_MODEL).doStream({ prompt: v4Prompt })).stream),
    },
    {
      name: '@ai-sdk/openai-compatible doStream',
      run: async () =>
        drain((await oc.chatModel(CHAT_MODEL).doStream({ prompt: v4Prompt })).stream),
    },
  ];
  const floorModel = floorLanguageModel(chunks);
  const floorLc = new FloorChatModel(chunks);
  const textStream = async (model) => {
    const result = streamText({
      model,
      prompt,
      onError: ({ error }) => {
        throw error;
      },
    });
    for await (const _delta of result.textStream);
  };
  const lcStream = async (model) => {
    for await (const _chunk of await model.stream(prompt));
  };
  if (withFloors)
    list.push({
      name: 'ai floor streamText (do-nothing V4 model)',
      run: () => textStream(floorModel),
    });
  list.push(
    { name: 'streamText + @infergate/ai-sdk', run: () => textStream(ours(CHAT_MODEL)) },
    {
      name: 'streamText + @ai-sdk/openai-compatible',
      run: () => textStream(oc.chatModel(CHAT_MODEL)),
    },
  );
  if (withFloors)
    list.push({
      name: 'LangChain floor .stream (do-nothing BaseChatModel)',
      run: () => lcStream(floorLc),
    });
  list.push(
    { name: 'GatewayChatModel.stream', run: () => lcStream(oursLc) },
    { name: 'ChatOpenAI.stream', run: () => lcStream(lcOpenAI) },
  );
  return list;
}

const CORE = 'core chatStream';
const DO_STREAM = '@infergate/ai-sdk doStream';
const OURS_LC = 'GatewayChatModel.stream';
const CHAT_OPENAI = 'ChatOpenAI.stream';

/**
 * The mapping's cost: `doStream` against core's `chatStream` on the same canned body, interleaved,
 * each stream timed by this process's CPU time (user + system). On a shared machine a stream's
 * wall time also holds the time it waited for a core, which no client controls; the CPU time is
 * the work done. Returns chunks per CPU second, per case.
 *
 * `collect`: a forced full GC before each stream. It also frees the hidden classes of every
 * per-stream object (no instance is left alive), so the stream that follows re-learns them: type
 * feedback cleared, code deoptimized and compiled again (on a background thread, in the CPU time),
 * for several streams. Without it the process stays warm, as one serving streams does; a stream's
 * garbage costs the next one little, since a scavenge copies only what survives.
 */
async function cpuRates(list, names, chunks, rounds, { collect }) {
  const pair = list.filter(({ name }) => names.includes(name));
  const samples = new Map(pair.map(({ name }) => [name, []]));
  for (let round = -4; round < rounds; round++) {
    const order = round % 2 === 0 ? pair : [...pair].reverse();
    for (const c of order) {
      if (collect) globalThis.gc?.();
      const start = process.cpuUsage();
      await c.run();
      const used = process.cpuUsage(start);
      if (round >= 0) samples.get(c.name).push((used.user + used.system) / 1000);
    }
  }
  return Object.fromEntries([...samples].map(([name, ms]) => [name, chunks / (median(ms) / 1000)]));
}

/** The mapping's cost measured warm (the target) and after a forced GC (shown beside it). */
async function mappingCostBothWays(list, chunks, quick) {
  const streams = quick ? 7 : 21;
  const names = [CORE, DO_STREAM];
  const warm = await cpuRates(list, names, chunks, streams, { collect: false });
  const collected = await cpuRates(list, names, chunks, streams, { collect: true });
  return { streams, warm, collected };
}

/**
 * GatewayChatModel.stream against ChatOpenAI.stream the same way, warm: the two alternate in one
 * process, each timed by its CPU time, so a slow stretch of this shared machine cannot move one
 * side only (the wall-clock ratio of one interleaved run moved from 1.28× to 1.66× between two
 * runs of the same code on 2026-12-03).
 */
async function langChainCost(list, chunks, quick) {
  const streams = quick ? 7 : 21;
  return {
    streams,
    warm: await cpuRates(list, [OURS_LC, CHAT_OPENAI], chunks, streams, { collect: false }),
  };
}

function langChainSection({ streams, warm }, chunks, mode) {
  return {
    title: `B2 LangChain: GatewayChatModel.stream vs ChatOpenAI.stream, ${chunks} chunks, ${mode}, CPU time (median of ${streams} streams each, interleaved, warm)`,
    rows: [CHAT_OPENAI, OURS_LC].map((name) => ({
      case: name,
      'chunks / CPU s': fmtRate(warm[name]),
      'vs ChatOpenAI': fmtRatio(warm[name] / warm[CHAT_OPENAI]),
    })),
  };
}

function mappingSection({ streams, warm, collected }, chunks, mode) {
  return {
    title: `B2 the AI SDK's mapping: doStream vs core chatStream, ${chunks} chunks, ${mode}, CPU time (median of ${streams} streams each, interleaved)`,
    rows: [CORE, DO_STREAM].map((name) => ({
      case: name,
      'warm: chunks / CPU s': fmtRate(warm[name]),
      'warm: vs core': fmtRatio(warm[name] / warm[CORE]),
      'after a forced GC: chunks / CPU s': fmtRate(collected[name]),
      'after a forced GC: vs core': fmtRatio(collected[name] / collected[CORE]),
    })),
    note: 'Warm: streams back to back, as a process serving them runs. After a forced GC: a full GC before each stream, which also frees the hidden classes of every per-stream object, so each stream pays for its code being compiled again; that share shrinks as the stream grows.',
  };
}

export async function runB2({ quick }) {
  const chunks = quick ? 2000 : 20_000;
  const rounds = quick ? 5 : 11;
  const sections = [];
  const modes = [
    [
      'canned SSE body',
      { baseURL: CANNED_BASE_URL, apiKey: CANNED_KEY, fetch: cannedFetch(ssePieces(chunks)) },
      'Count to many.',
      true,
    ],
    [
      'emulator fetch handler',
      {
        baseURL: 'http://emulator.test/v1',
        apiKey: DEFAULT_KEYS.full,
        fetch: createEmulator().fetch,
      },
      `[[chunks:${chunks}]]`,
      false,
    ],
  ];
  const rates = {};
  let mapping;
  let langChain;
  for (const [mode, connection, prompt, withFloors] of modes) {
    const list = cases(connection, prompt, chunks, withFloors);
    for (const c of list) await c.run();
    await settle();
    const result = await interleaved(list, {
      rounds,
      iterations: 1,
      warmupMs: quick ? 2000 : 6000,
    });
    const perSecond = Object.fromEntries(
      list.map(({ name }) => [name, chunks / (result[name] / 1000)]),
    );
    rates[mode] = perSecond;
    if (withFloors) {
      mapping = await mappingCostBothWays(list, chunks, quick);
      sections.push(mappingSection(mapping, chunks, mode));
      langChain = await langChainCost(list, chunks, quick);
      sections.push(langChainSection(langChain, chunks, mode));
    }
    const raw = perSecond['raw reader + eventsource-parser + JSON.parse'];
    const core = perSecond[CORE];
    sections.push({
      title: `B2 streaming ${chunks} chunks, ${mode} (median of ${rounds} streams)`,
      rows: list.map(({ name }) => ({
        case: name,
        'chunks/s': fmtRate(perSecond[name]),
        'ms / stream': result[name].toFixed(1),
        'vs core': fmtRatio(perSecond[name] / core),
        'vs raw': fmtRatio(perSecond[name] / raw),
      })),
    });
  }
  const targets = b2Targets(rates['canned SSE body'], mapping, langChain);
  return {
    sections,
    targets,
    parameters: { chunks, rounds },
    data: { chunks, rates, cpuRates: mapping, langChainCpuRates: langChain },
  };
}

/** B2's targets: read on the canned body, where only the clients' work differs. */
function b2Targets(r, mapping, langChain) {
  const doStreamVsOc = r['@infergate/ai-sdk doStream'] / r['@ai-sdk/openai-compatible doStream'];
  const doStreamVsCore = mapping.warm[DO_STREAM] / mapping.warm[CORE];
  const lcVsAnchor = langChain.warm[OURS_LC] / langChain.warm[CHAT_OPENAI];
  return [
    target(
      'B2.doStream-vs-anchor',
      "@infergate/ai-sdk doStream: chunks/s vs @ai-sdk/openai-compatible doStream's (canned SSE body)",
      [check('ours / anchor', doStreamVsOc, '>=', 3, 'ratio')],
    ),
    target(
      'B2.doStream-vs-core',
      "@infergate/ai-sdk doStream: chunks per CPU second vs core chatStream's, same run, interleaved, warm (canned SSE body): the mapping's cost",
      [check('doStream / chatStream', doStreamVsCore, '>=', 0.8, 'ratio')],
      [
        context(
          'after a forced GC',
          mapping.collected[DO_STREAM] / mapping.collected[CORE],
          'ratio',
        ),
        context('wall-clock doStream / chatStream', r[DO_STREAM] / r[CORE], 'ratio'),
      ],
    ),
    target(
      'B2.stream',
      "GatewayChatModel.stream: chunks per CPU second vs ChatOpenAI.stream's, same run, interleaved, warm (canned SSE body)",
      [check('ours / anchor', lcVsAnchor, '>=', 1.3, 'ratio')],
      [context('wall-clock ours / anchor', r[OURS_LC] / r[CHAT_OPENAI], 'ratio')],
    ),
  ];
}

/**
 * The contenders, each built the way its README tells a user to, pointed at one base URL / key /
 * fetch. Ours: @infergate/core, @infergate/ai-sdk, @infergate/langchain. Anchors: what a user would
 * pick instead for an OpenAI-compatible gateway: @ai-sdk/openai-compatible and @langchain/openai.
 */
import { createOpenAICompatible } from '@ai-sdk/openai-compatible';
import { createGateway } from '@infergate/ai-sdk';
import { createGatewayClient } from '@infergate/core';
import { GatewayChatModel, GatewayEmbeddings } from '@infergate/langchain';
import { BaseChatModel } from '@langchain/core/language_models/chat_models';
import { AIMessage, AIMessageChunk } from '@langchain/core/messages';
import { ChatGenerationChunk } from '@langchain/core/outputs';
import { ChatOpenAI, OpenAIEmbeddings } from '@langchain/openai';

/** `{ baseURL, apiKey, fetch? }` → the option objects each library takes. */
export function coreClient({ baseURL, apiKey, fetch }, options = {}) {
  return createGatewayClient({ baseURL, apiKey, ...(fetch ? { fetch } : {}), ...options });
}

export function oursAiSdk({ baseURL, apiKey, fetch }, settings = {}) {
  return createGateway({ baseURL, apiKey, ...(fetch ? { fetch } : {}), ...settings });
}

export function openaiCompatible({ baseURL, apiKey, fetch }, settings = {}) {
  // includeUsage: ours always reports usage; the anchor asks for it only with this flag.
  return createOpenAICompatible({
    name: 'gateway',
    baseURL,
    apiKey,
    includeUsage: true,
    ...(fetch ? { fetch } : {}),
    ...settings,
  });
}

export function oursChatModel({ baseURL, apiKey, fetch }, model) {
  return new GatewayChatModel({ model, baseURL, apiKey, ...(fetch ? { fetch } : {}) });
}

export function chatOpenAI({ baseURL, apiKey, fetch }, model) {
  return new ChatOpenAI({
    model,
    apiKey,
    configuration: { baseURL, ...(fetch ? { fetch } : {}) },
  });
}

export function oursEmbeddings({ baseURL, apiKey, fetch }, model) {
  return new GatewayEmbeddings({ model, baseURL, apiKey, ...(fetch ? { fetch } : {}) });
}

export function openAIEmbeddings({ baseURL, apiKey, fetch }, model, extra = {}) {
  return new OpenAIEmbeddings({
    model,
    apiKey,
    configuration: { baseURL, ...(fetch ? { fetch } : {}) },
    ...extra,
  });
}

const FLOOR_USAGE = {
  inputTokens: { total: 6, noCache: 6, cacheRead: undefined, cacheWrite: undefined },
  outputTokens: { total: 7, text: 7, reasoning: undefined },
};

/**
 * `ai`'s own floor: a LanguageModelV4 that does nothing. `doStream` emits `chunks` text deltas
 * from memory (one stream part per chunk, like a provider would).
 */
export function floorLanguageModel(chunks = 0) {
  return {
    specificationVersion: 'v4',
    provider: 'floor',
    modelId: 'floor',
    supportedUrls: {},
    async doGenerate() {
      return {
        content: [{ type: 'text', text: 'Echo: Say hello in one short sentence.' }],
        finishReason: { unified: 'stop', raw: 'stop' },
        usage: FLOOR_USAGE,
        warnings: [],
      };
    },
    async doStream() {
      let i = -2;
      const stream = new ReadableStream({
        pull(controller) {
          if (i === -2) controller.enqueue({ type: 'stream-start', warnings: [] });
          else if (i === -1) controller.enqueue({ type: 'text-start', id: 't' });
          else if (i < chunks)
            controller.enqueue({ type: 'text-delta', id: 't', delta: `tok${i} ` });
          else if (i === chunks) controller.enqueue({ type: 'text-end', id: 't' });
          else if (i === chunks + 1) {
            controller.enqueue({
              type: 'finish',
              finishReason: { unified: 'stop', raw: 'stop' },
              usage: FLOOR_USAGE,
            });
          } else controller.close();
          i++;
        },
      });
      return { stream };
    },
  };
}

/** LangChain's own floor: a BaseChatModel that answers from memory. */
export class FloorChatModel extends BaseChatModel {
  constructor(chunks = 0) {
    super({});
    this.chunks = chunks;
  }
  _llmType() {
    return 'floor';
  }
  async _generate() {
    const text = 'Echo: Say hello in one short sentence.';
    return { generations: [{ text, message: new AIMessage(text) }] };
  }
  async *_streamResponseChunks() {
    for (let i = 0; i < this.chunks; i++) {
      const text = `tok${i} `;
      yield new ChatGenerationChunk({ text, message: new AIMessageChunk({ content: text }) });
    }
  }
}

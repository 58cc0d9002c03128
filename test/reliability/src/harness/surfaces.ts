import { APICallError, InvalidArgumentError } from '@ai-sdk/provider';
import { createGateway } from '@infergate/ai-sdk';
import { createGatewayClient, isGatewayError } from '@infergate/core';
import {
  createOcrTool,
  createTranscribeTool,
  createTranslateTool,
  GatewayChatModel,
  GatewayEmbeddings,
} from '@infergate/langchain';
import { embedMany, generateText, streamText, transcribe } from 'ai';
import type { Cell } from './cell';
import { EMBED_ENGINE, EMBED_TEXTS, PNG, PROMPT, toBase64, WAV } from './fixtures';

export const ENDPOINTS = [
  'chat',
  'chat_stream',
  'embeddings',
  'translation',
  'ocr',
  'transcription',
] as const;
export type Endpoint = (typeof ENDPOINTS)[number];

export const SURFACES = ['core', 'langchain', 'ai-sdk'] as const;
export type Surface = (typeof SURFACES)[number];

/** The emulator counter that one matrix endpoint increments. */
export const COUNTER: Record<
  Endpoint,
  'chat' | 'embeddings' | 'translations' | 'ocr' | 'transcriptions'
> = {
  chat: 'chat',
  chat_stream: 'chat',
  embeddings: 'embeddings',
  translation: 'translations',
  ocr: 'ocr',
  transcription: 'transcriptions',
};

export interface RunOptions {
  maxRetries: number;
  timeoutMs: number;
  signal?: AbortSignal;
  /** Called with every client / model / tool object built, for the secrets checks. */
  onObject?: (object: unknown) => void;
}

/** What a call produced, seen from the caller: a whole answer, or an error (maybe after a partial). */
export type Outcome =
  | { ok: true; value: string }
  | {
      ok: false;
      /** The typed code: `GatewayError.code`, `APICallError.data.code`, `aborted` for an abort. */
      code: string | undefined;
      /** The error's type as the caller sees it (`GatewayError`, `APICallError`, `AbortError`, …). */
      kind: string;
      error: unknown;
      /** Text a stream delivered before it failed. */
      partial: string;
    };

/** Classifies what a surface threw (or put in an `error` stream part). */
export function classify(error: unknown, partial = ''): Outcome {
  if (isGatewayError(error))
    return { ok: false, code: error.code, kind: 'GatewayError', error, partial };
  if (APICallError.isInstance(error)) {
    const data = error.data as { code?: unknown } | undefined;
    const code = typeof data?.code === 'string' ? data.code : undefined;
    return { ok: false, code, kind: 'APICallError', error, partial };
  }
  if (InvalidArgumentError.isInstance(error)) {
    return {
      ok: false,
      code: 'invalid_request_error',
      kind: 'InvalidArgumentError',
      error,
      partial,
    };
  }
  if (error instanceof Error && error.name === 'AbortError') {
    return { ok: false, code: 'aborted', kind: 'AbortError', error, partial };
  }
  const kind = error instanceof Error ? error.name || 'Error' : typeof error;
  return { ok: false, code: undefined, kind, error, partial };
}

type Runner = (cell: Cell, options: RunOptions) => Promise<string>;

/** Thrown by a runner whose stream failed after delivering some text. */
class PartialFailure extends Error {
  constructor(
    readonly inner: unknown,
    readonly partial: string,
  ) {
    super('stream failed');
  }
}

function keep<T>(options: RunOptions, object: T): T {
  options.onObject?.(object);
  return object;
}

// ---------------------------------------------------------------------------------------------
// core
// ---------------------------------------------------------------------------------------------

function coreClient(cell: Cell, options: RunOptions) {
  return keep(
    options,
    createGatewayClient({
      baseURL: cell.baseURL,
      apiKey: cell.apiKey,
      fetch: cell.fetch,
      maxRetries: options.maxRetries,
      timeoutMs: options.timeoutMs,
      retryBaseDelayMs: 1,
    }),
  );
}

const core: Record<Endpoint, Runner> = {
  chat: async (cell, options) => {
    const result = await coreClient(cell, options).chat(
      { model: 'community/general', messages: [{ role: 'user', content: PROMPT }] },
      { signal: options.signal },
    );
    const content = result.response.choices[0]?.message.content;
    return typeof content === 'string' ? content : '';
  },
  chat_stream: async (cell, options) => {
    let text = '';
    try {
      const stream = await coreClient(cell, options).chatStream(
        { model: 'community/general', messages: [{ role: 'user', content: PROMPT }] },
        { signal: options.signal },
      );
      for await (const event of stream) if (event.type === 'text-delta') text += event.delta;
      const result = await stream.result().catch(() => undefined);
      if (result && result.text !== text) throw new Error('result() differs from the events');
      return text;
    } catch (error) {
      throw new PartialFailure(error, text);
    }
  },
  embeddings: async (cell, options) => {
    const response = await coreClient(cell, options).embed(
      { model: EMBED_ENGINE, input: EMBED_TEXTS },
      { signal: options.signal },
    );
    return `${response.data.length}x${response.data[0]?.embedding.length ?? 0}`;
  },
  translation: async (cell, options) =>
    (
      await coreClient(cell, options).translate(
        { input: 'hello', target_language: 'uk' },
        { signal: options.signal },
      )
    ).text,
  ocr: async (cell, options) =>
    (await coreClient(cell, options).ocr({ image: PNG }, { signal: options.signal })).text,
  transcription: async (cell, options) =>
    (await coreClient(cell, options).transcribe({ audio: WAV }, { signal: options.signal })).text,
};

// ---------------------------------------------------------------------------------------------
// LangChain
// ---------------------------------------------------------------------------------------------

function lcConnection(cell: Cell, options: RunOptions) {
  return {
    baseURL: cell.baseURL,
    apiKey: cell.apiKey,
    fetch: cell.fetch,
    maxRetries: options.maxRetries,
    timeout: options.timeoutMs,
  };
}

function lcCall(options: RunOptions) {
  return options.signal ? { signal: options.signal } : {};
}

const langchain: Record<Endpoint, Runner> = {
  chat: async (cell, options) => {
    const model = keep(
      options,
      new GatewayChatModel({ model: 'community/general', ...lcConnection(cell, options) }),
    );
    const message = await model.invoke(PROMPT, lcCall(options));
    return typeof message.content === 'string' ? message.content : JSON.stringify(message.content);
  },
  chat_stream: async (cell, options) => {
    const model = keep(
      options,
      new GatewayChatModel({ model: 'community/general', ...lcConnection(cell, options) }),
    );
    let text = '';
    try {
      for await (const chunk of await model.stream(PROMPT, lcCall(options))) {
        if (typeof chunk.content === 'string') text += chunk.content;
      }
      return text;
    } catch (error) {
      throw new PartialFailure(error, text);
    }
  },
  embeddings: async (cell, options) => {
    const embeddings = keep(
      options,
      new GatewayEmbeddings({ model: EMBED_ENGINE, ...lcConnection(cell, options) }),
    );
    const vectors = await embeddings.embedDocuments(EMBED_TEXTS);
    return `${vectors.length}x${vectors[0]?.length ?? 0}`;
  },
  translation: async (cell, options) => {
    const tool = keep(options, createTranslateTool(lcConnection(cell, options)));
    return String(await tool.invoke({ text: 'hello', target_language: 'uk' }, lcCall(options)));
  },
  ocr: async (cell, options) => {
    const tool = keep(options, createOcrTool(lcConnection(cell, options)));
    return String(await tool.invoke({ image: toBase64(PNG) }, lcCall(options)));
  },
  transcription: async (cell, options) => {
    const tool = keep(options, createTranscribeTool(lcConnection(cell, options)));
    return String(await tool.invoke({ audio: toBase64(WAV) }, lcCall(options)));
  },
};

// ---------------------------------------------------------------------------------------------
// AI SDK
// ---------------------------------------------------------------------------------------------

function provider(cell: Cell, options: RunOptions) {
  return keep(
    options,
    createGateway({
      baseURL: cell.baseURL,
      apiKey: cell.apiKey,
      fetch: cell.fetch,
      maxRetries: options.maxRetries,
      timeoutMs: options.timeoutMs,
    }),
  );
}

const toolCall = (options: RunOptions) => ({
  toolCallId: 'call-1',
  messages: [],
  ...(options.signal ? { abortSignal: options.signal } : {}),
});

const aiSdk: Record<Endpoint, Runner> = {
  chat: async (cell, options) => {
    const model = keep(options, provider(cell, options)('community/general'));
    const result = await generateText({ model, prompt: PROMPT, abortSignal: options.signal });
    return result.text;
  },
  chat_stream: async (cell, options) => {
    const model = keep(options, provider(cell, options)('community/general'));
    const result = streamText({
      model,
      prompt: PROMPT,
      abortSignal: options.signal,
      onError: () => {},
    });
    let text = '';
    for await (const part of result.fullStream) {
      if (part.type === 'text-delta') text += part.text;
      if (part.type === 'error') throw new PartialFailure(part.error, text);
      if (part.type === 'abort') {
        throw new PartialFailure(new DOMException('stream aborted', 'AbortError'), text);
      }
    }
    return text;
  },
  embeddings: async (cell, options) => {
    const model = keep(options, provider(cell, options).embeddingModel(EMBED_ENGINE));
    const { embeddings } = await embedMany({
      model,
      values: EMBED_TEXTS,
      abortSignal: options.signal,
    });
    return `${embeddings.length}x${embeddings[0]?.length ?? 0}`;
  },
  translation: async (cell, options) => {
    const tool = keep(options, provider(cell, options).tools.translate());
    const result = await tool.execute!({ text: 'hello', targetLanguage: 'uk' }, toolCall(options));
    return (result as { text: string }).text;
  },
  ocr: async (cell, options) => {
    const tool = keep(options, provider(cell, options).tools.ocr());
    const result = await tool.execute!({ image: toBase64(PNG) }, toolCall(options));
    return (result as { text: string }).text;
  },
  transcription: async (cell, options) => {
    const model = keep(options, provider(cell, options).transcriptionModel());
    const result = await transcribe({ model, audio: WAV, abortSignal: options.signal });
    return result.text;
  },
};

const RUNNERS: Record<Surface, Record<Endpoint, Runner>> = {
  core,
  langchain,
  'ai-sdk': aiSdk,
};

/** Runs one endpoint through one surface's public entry point and reports what the caller saw. */
export async function run(
  surface: Surface,
  endpoint: Endpoint,
  cell: Cell,
  options: RunOptions,
): Promise<Outcome> {
  try {
    return { ok: true, value: await RUNNERS[surface][endpoint](cell, options) };
  } catch (error) {
    if (error instanceof PartialFailure) return classify(error.inner, error.partial);
    return classify(error);
  }
}

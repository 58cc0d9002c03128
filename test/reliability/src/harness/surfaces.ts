import { APICallError, InvalidArgumentError } from '@ai-sdk/provider';
import { createGateway, type GatewayProvider } from '@infergate/ai-sdk';
import { createGatewayClient, type GatewayClient, isGatewayError } from '@infergate/core';
import {
  createOcrTool,
  createTranscribeTool,
  createTranslateTool,
  GatewayChatModel,
  GatewayEmbeddings,
} from '@infergate/langchain';
import {
  embedMany,
  generateText,
  NoOutputGeneratedError,
  RetryError,
  streamText,
  transcribe,
} from 'ai';
import type { Cell } from './cell';
import { EMBED_ENGINE, EMBED_TEXTS, EXPECTED, PNG, PROMPT, toBase64, WAV } from './fixtures';

export const ENDPOINTS = [
  'chat',
  'chat_stream',
  'chat_stream_result',
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
  chat_stream_result: 'chat',
  embeddings: 'embeddings',
  translation: 'translations',
  ocr: 'ocr',
  transcription: 'transcriptions',
};

/** The whole answer an endpoint gives for the matrix's request. */
export function expectedAnswer(endpoint: Endpoint): string {
  return EXPECTED[
    isChat(endpoint)
      ? 'chat'
      : (endpoint as Exclude<Endpoint, 'chat_stream' | 'chat_stream_result'>)
  ];
}

export function isChat(endpoint: Endpoint): boolean {
  return endpoint === 'chat' || endpoint === 'chat_stream' || endpoint === 'chat_stream_result';
}

export interface KitOptions {
  maxRetries: number;
  timeoutMs: number;
  /** Called with every client / model / tool object built, for the secrets checks. */
  onObject?: (object: unknown) => void;
}

/** Per call: the caller's signal and the prompt (load runs vary it). */
export interface CallInput {
  signal?: AbortSignal;
  prompt?: string;
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
      /**
       * AI SDK `streamText`: `await result.text` resolved with this text although the stream failed
       * (`finishReason` 'error'; the typed error came through `onError`). That is the SDK's design
       * for a failure after the stream started; the matrix checks it as the documented expectation.
       */
      resolvedText?: string;
    };

/** Classifies what a surface threw (or put in an `error` stream part). */
export function classify(error: unknown, partial = ''): Outcome {
  // `ai`'s retry loop wraps the last attempt's error once its retries are spent.
  if (RetryError.isInstance(error)) return classify(error.lastError, partial);
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

/**
 * Thrown by a runner when a framework promise resolved although the call failed and nothing else
 * (no `finishReason` 'error' with an `onError` report) told the caller.
 */
export class ResolvedDespiteError extends Error {
  override readonly name = 'ResolvedDespiteError';
}

/** Thrown by a runner whose stream failed after delivering some text. */
class PartialFailure extends Error {
  constructor(
    readonly inner: unknown,
    readonly partial: string,
    readonly resolvedText?: string,
  ) {
    super('stream failed');
  }
}

/**
 * The objects of every surface for one gateway, built on first use and reused by every call (as an
 * application would): a core client, LangChain's model, embeddings and tools, an AI SDK provider.
 */
export class Kit {
  readonly #cell: Cell;
  readonly #options: KitOptions;
  readonly #made = new Map<string, unknown>();

  constructor(cell: Cell, options: KitOptions) {
    this.#cell = cell;
    this.#options = options;
  }

  #once<T>(name: string, make: () => T): T {
    if (!this.#made.has(name)) {
      const object = make();
      this.#options.onObject?.(object);
      this.#made.set(name, object);
    }
    return this.#made.get(name) as T;
  }

  /**
   * The AI SDK's own retries: `ai` owns them (the adapter makes one attempt per model call), so
   * its `maxRetries` gets the budget core gets on the other surfaces.
   */
  get aiMaxRetries(): number | undefined {
    return this.#options.maxRetries;
  }

  get objects(): unknown[] {
    return [...this.#made.values()];
  }

  core(): GatewayClient {
    return this.#once('core', () =>
      createGatewayClient({
        baseURL: this.#cell.baseURL,
        apiKey: this.#cell.apiKey,
        fetch: this.#cell.fetch,
        maxRetries: this.#options.maxRetries,
        timeoutMs: this.#options.timeoutMs,
        retryBaseDelayMs: 1,
      }),
    );
  }

  /** LangChain connection fields: each LangChain object makes its own client from them. */
  lcFields() {
    return {
      baseURL: this.#cell.baseURL,
      apiKey: this.#cell.apiKey,
      fetch: this.#cell.fetch,
      maxRetries: this.#options.maxRetries,
      timeout: this.#options.timeoutMs,
    };
  }

  lcModel(): GatewayChatModel {
    return this.#once(
      'lcModel',
      () => new GatewayChatModel({ model: 'community/general', ...this.lcFields() }),
    );
  }
  lcStreamingModel(): GatewayChatModel {
    return this.#once(
      'lcStreamingModel',
      () =>
        new GatewayChatModel({ model: 'community/general', streaming: true, ...this.lcFields() }),
    );
  }
  lcEmbeddings(): GatewayEmbeddings {
    return this.#once(
      'lcEmbeddings',
      () => new GatewayEmbeddings({ model: EMBED_ENGINE, ...this.lcFields() }),
    );
  }
  lcTranslate() {
    return this.#once('lcTranslate', () => createTranslateTool(this.lcFields()));
  }
  lcOcr() {
    return this.#once('lcOcr', () => createOcrTool(this.lcFields()));
  }
  lcTranscribe() {
    return this.#once('lcTranscribe', () => createTranscribeTool(this.lcFields()));
  }

  provider(): GatewayProvider {
    return this.#once('provider', () =>
      createGateway({
        baseURL: this.#cell.baseURL,
        apiKey: this.#cell.apiKey,
        fetch: this.#cell.fetch,
        timeoutMs: this.#options.timeoutMs,
      }),
    );
  }
  aiModel() {
    return this.#once('aiModel', () => this.provider()('community/general'));
  }
  aiEmbedding() {
    return this.#once('aiEmbedding', () => this.provider().embeddingModel(EMBED_ENGINE));
  }
  aiTranscription() {
    return this.#once('aiTranscription', () => this.provider().transcriptionModel());
  }
  aiTranslate() {
    return this.#once('aiTranslate', () => this.provider().tools.translate());
  }
  aiOcr() {
    return this.#once('aiOcr', () => this.provider().tools.ocr());
  }
}

type Runner = (kit: Kit, input: CallInput) => Promise<string>;

const signalOf = (input: CallInput) => (input.signal ? { signal: input.signal } : {});

const core: Record<Endpoint, Runner> = {
  chat: async (kit, input) => {
    const result = await kit.core().chat(
      {
        model: 'community/general',
        messages: [{ role: 'user', content: input.prompt ?? PROMPT }],
      },
      signalOf(input),
    );
    const content = result.response.choices[0]?.message.content;
    return typeof content === 'string' ? content : '';
  },
  chat_stream: async (kit, input) => {
    let text = '';
    try {
      const stream = await kit.core().chatStream(
        {
          model: 'community/general',
          messages: [{ role: 'user', content: input.prompt ?? PROMPT }],
        },
        signalOf(input),
      );
      for await (const event of stream) if (event.type === 'text-delta') text += event.delta;
      const result = await stream.result();
      if (result.text !== text) throw new Error('result() differs from the events');
      return text;
    } catch (error) {
      throw new PartialFailure(error, text);
    }
  },
  chat_stream_result: async (kit, input) => {
    // The stream consumed only through result(), never iterated.
    const stream = await kit.core().chatStream(
      {
        model: 'community/general',
        messages: [{ role: 'user', content: input.prompt ?? PROMPT }],
      },
      signalOf(input),
    );
    return (await stream.result()).text;
  },
  embeddings: async (kit, input) => {
    const response = await kit
      .core()
      .embed({ model: EMBED_ENGINE, input: EMBED_TEXTS }, signalOf(input));
    return `${response.data.length}x${response.data[0]?.embedding.length ?? 0}`;
  },
  translation: async (kit, input) =>
    (await kit.core().translate({ input: 'hello', target_language: 'uk' }, signalOf(input))).text,
  ocr: async (kit, input) => (await kit.core().ocr({ image: PNG }, signalOf(input))).text,
  transcription: async (kit, input) =>
    (await kit.core().transcribe({ audio: WAV }, signalOf(input))).text,
};

const langchain: Record<Endpoint, Runner> = {
  chat: async (kit, input) => {
    const message = await kit.lcModel().invoke(input.prompt ?? PROMPT, signalOf(input));
    return typeof message.content === 'string' ? message.content : JSON.stringify(message.content);
  },
  chat_stream: async (kit, input) => {
    let text = '';
    try {
      for await (const chunk of await kit
        .lcModel()
        .stream(input.prompt ?? PROMPT, signalOf(input))) {
        if (typeof chunk.content === 'string') text += chunk.content;
      }
      return text;
    } catch (error) {
      throw new PartialFailure(error, text);
    }
  },
  chat_stream_result: async (kit, input) => {
    // invoke() on a model built with `streaming: true` reads a stream.
    const message = await kit.lcStreamingModel().invoke(input.prompt ?? PROMPT, signalOf(input));
    return typeof message.content === 'string' ? message.content : JSON.stringify(message.content);
  },
  embeddings: async (kit) => {
    // embedDocuments takes no signal: LangChain's Embeddings interface has none.
    const vectors = await kit.lcEmbeddings().embedDocuments(EMBED_TEXTS);
    return `${vectors.length}x${vectors[0]?.length ?? 0}`;
  },
  translation: async (kit, input) =>
    String(
      await kit.lcTranslate().invoke({ text: 'hello', target_language: 'uk' }, signalOf(input)),
    ),
  ocr: async (kit, input) =>
    String(await kit.lcOcr().invoke({ image: toBase64(PNG) }, signalOf(input))),
  transcription: async (kit, input) =>
    String(await kit.lcTranscribe().invoke({ audio: toBase64(WAV) }, signalOf(input))),
};

const toolCall = (input: CallInput) => ({
  toolCallId: 'call-1',
  messages: [],
  context: {},
  ...(input.signal ? { abortSignal: input.signal } : {}),
});

const aiSdk: Record<Endpoint, Runner> = {
  chat: async (kit, input) => {
    const result = await generateText({
      model: kit.aiModel(),
      prompt: input.prompt ?? PROMPT,
      abortSignal: input.signal,
      maxRetries: kit.aiMaxRetries,
    });
    return result.text;
  },
  chat_stream: async (kit, input) => {
    const result = streamText({
      model: kit.aiModel(),
      prompt: input.prompt ?? PROMPT,
      abortSignal: input.signal,
      maxRetries: kit.aiMaxRetries,
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
  chat_stream_result: async (kit, input) => {
    // streamText consumed through its `text` and `finishReason` promises, as many apps do. A
    // failure before any output rejects them with the SDK's NoOutputGeneratedError (no cause); a
    // failure after the stream started resolves `text` with the partial text and `finishReason`
    // with 'error'. Either way the typed error reaches `onError`, where such an app learns the code.
    const reported: unknown[] = [];
    const result = streamText({
      model: kit.aiModel(),
      prompt: input.prompt ?? PROMPT,
      abortSignal: input.signal,
      maxRetries: kit.aiMaxRetries,
      onError: ({ error }) => {
        reported.push(error);
      },
    });
    try {
      const [text, finishReason] = await Promise.all([result.text, result.finishReason]);
      // A failure after the stream started: `text` resolves with what arrived (the AI SDK's design,
      // as with its own providers); `finishReason` 'error' and `onError` carry the failure.
      if (finishReason === 'error' && reported.length > 0) {
        throw new PartialFailure(reported[0], text, text);
      }
      if (finishReason === 'error' || reported.length > 0) {
        throw new ResolvedDespiteError(
          `result.text resolved with ${JSON.stringify(text)} although finishReason is ${finishReason}`,
        );
      }
      return text;
    } catch (error) {
      if (NoOutputGeneratedError.isInstance(error) && reported.length > 0) {
        throw new PartialFailure(reported[0], '');
      }
      throw error;
    }
  },
  embeddings: async (kit, input) => {
    const { embeddings } = await embedMany({
      model: kit.aiEmbedding(),
      values: EMBED_TEXTS,
      abortSignal: input.signal,
      maxRetries: kit.aiMaxRetries,
    });
    return `${embeddings.length}x${embeddings[0]?.length ?? 0}`;
  },
  translation: async (kit, input) => {
    const result = await kit.aiTranslate().execute!(
      { text: 'hello', target_language: 'uk' },
      toolCall(input),
    );
    return (result as { text: string }).text;
  },
  ocr: async (kit, input) => {
    const result = await kit.aiOcr().execute!({ image: toBase64(PNG) }, toolCall(input));
    return (result as { text: string }).text;
  },
  transcription: async (kit, input) => {
    const result = await transcribe({
      model: kit.aiTranscription(),
      audio: WAV,
      abortSignal: input.signal,
      maxRetries: kit.aiMaxRetries,
    });
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
  kit: Kit,
  input: CallInput = {},
): Promise<Outcome> {
  try {
    return { ok: true, value: await RUNNERS[surface][endpoint](kit, input) };
  } catch (error) {
    if (error instanceof PartialFailure) {
      const outcome = classify(error.inner, error.partial);
      if (!outcome.ok && error.resolvedText !== undefined)
        outcome.resolvedText = error.resolvedText;
      return outcome;
    }
    return classify(error);
  }
}

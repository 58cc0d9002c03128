/**
 * The app every runtime serves: one module-level client per surface (as a real app keeps them, so
 * that concurrent requests of one isolate share the key's budget), and routes
 * `/<surface>/<case>` with surface `core` | `ai-sdk` | `langchain` and case
 * - `chat`: one answer, as JSON `{ text }`;
 * - `stream`: the answer streamed as text;
 * - `abandon`: starts a stream, reads its first piece and answers without reading the rest;
 * - `deadline?ms=N`: a call whose deadline (N ms) passes before the gateway answers (the
 *   emulator's `slow_headers` fault), in flight or still queued for a slot: JSON `{ code, message }` of
 *   the error it failed with (retries stay on — core's, and `ai`'s for the AI SDK, which owns them
 *   there: a connection that fails before the answer, e.g. a reused keep-alive socket the gateway
 *   closed, or a 429 the gateway sends before it notices a cancel, is retried, and the deadline
 *   still ends it);
 * - `stream-signal` (core, ai-sdk): `stream`, with the incoming request's `signal` passed to the
 *   call, so a client that goes away cancels the gateway request where the runtime aborts that
 *   signal (workerd: only with the `enable_request_signal` compatibility flag);
 * - `/core/budget`: JSON `{ active, queued }` of the key's budget in this isolate;
 * - `/config`: a core client made without settings: JSON `{ code, message }` of its first call.
 * No `node:` import and no `process`: settings come from the caller (the Worker's `env`).
 */
import { createGateway, type GatewayProvider } from '@infergate/ai-sdk';
import { createGatewayClient, type GatewayClient } from '@infergate/core';
import { REQUEST_BOUND_TIMING } from '@infergate/core/internal';
import { GatewayChatModel } from '@infergate/langchain';
import { generateText, streamText } from 'ai';

export interface Settings {
  baseURL: string;
  apiKey: string;
}

// Isolate runtimes (workerd, edge-runtime) take back a slot whose request ended without a release
// once its heartbeat is stale: here at a fifth of the 2 s (ratios kept: heartbeat 1/8 of it), as
// the abandoned cases wait on it for each wave of 4 slots. Elsewhere the budget never reads it.
Object.assign(REQUEST_BOUND_TIMING, { heartbeatMs: 50, staleMs: 400 });

const MODEL = 'community/general';
const SLOW = { 'x-emulator-fault': 'slow_headers; ms=5000' };
const PROMPT = `Tell me something: ${'word '.repeat(24)}`;

interface Surfaces {
  core: GatewayClient;
  ai: GatewayProvider;
  /** AI SDK providers by deadline (the provider's `timeoutMs` is the call's deadline). */
  aiSlow: Map<number, GatewayProvider>;
  chat: GatewayChatModel;
  /** LangChain models by deadline (the model's `timeout`). */
  chatSlow: Map<number, GatewayChatModel>;
  settings: Settings;
}

let surfaces: Surfaces | undefined;

function surfacesFor(settings: Settings): Surfaces {
  surfaces ??= {
    core: createGatewayClient(settings),
    ai: createGateway(settings),
    aiSlow: new Map(),
    chat: new GatewayChatModel({ model: MODEL, ...settings }),
    chatSlow: new Map(),
    settings,
  };
  return surfaces;
}

function textStream(pieces: AsyncIterable<string>): Response {
  const encoder = new TextEncoder();
  const iterator = pieces[Symbol.asyncIterator]();
  return new Response(
    new ReadableStream<Uint8Array>({
      async pull(controller) {
        const { done, value } = await iterator.next();
        if (done) controller.close();
        else controller.enqueue(encoder.encode(value));
      },
      async cancel() {
        await iterator.return?.();
      },
    }),
    { headers: { 'content-type': 'text/plain; charset=utf-8' } },
  );
}

async function* coreText(client: GatewayClient, signal?: AbortSignal): AsyncIterable<string> {
  const stream = await client.chatStream(
    { model: MODEL, messages: [{ role: 'user', content: PROMPT }] },
    { signal },
  );
  for await (const event of stream) if (event.type === 'text-delta') yield event.delta;
}

async function* langchainText(model: GatewayChatModel): AsyncIterable<string> {
  for await (const chunk of await model.stream(PROMPT)) yield chunk.text;
}

/** The error's gateway code wherever the surface put it (core, AI SDK's data, a cause). */
function codeOf(error: unknown): string {
  // `ai`'s RetryError (retries spent, or a retry ended in an error not retryable): its last error.
  const last = (error as { lastError?: unknown } | null)?.lastError;
  if (last !== undefined) return codeOf(last);
  const e = error as {
    code?: unknown;
    data?: { code?: unknown };
    cause?: { code?: unknown };
    name?: unknown;
  };
  for (const code of [e?.code, e?.data?.code, e?.cause?.code, e?.name]) {
    if (typeof code === 'string') return code;
  }
  return String(error);
}

const answered = () => Response.json({ code: 'answered' });

/** A deadline call's error: its code, and its message for the test's report when it differs. */
function deadlineFailure(error: unknown): Response {
  const message = (error as { message?: unknown } | null)?.message;
  return Response.json({ code: codeOf(error), message: String(message ?? error) });
}

async function firstPiece(pieces: AsyncIterable<string>): Promise<Response> {
  // Read one piece, then answer: the rest is never read (nor cancelled).
  const { value } = await pieces[Symbol.asyncIterator]().next();
  return Response.json({ first: value ?? '' });
}

async function route(
  s: Surfaces,
  surface: string,
  kind: string,
  deadlineMs: number,
  signal: AbortSignal,
): Promise<Response> {
  const core = () => s.core.chat({ model: MODEL, messages: [{ role: 'user', content: PROMPT }] });
  if (surface === 'core') {
    if (kind === 'chat') {
      const { response } = await core();
      return Response.json({ text: response.choices[0]?.message.content ?? '' });
    }
    if (kind === 'stream') return textStream(coreText(s.core));
    if (kind === 'stream-signal') return textStream(coreText(s.core, signal));
    if (kind === 'budget') {
      return Response.json({ active: s.core.budget.active, queued: s.core.budget.queued });
    }
    if (kind === 'abandon') return firstPiece(coreText(s.core));
    if (kind === 'deadline') {
      return s.core
        .chat(
          { model: MODEL, messages: [{ role: 'user', content: PROMPT }] },
          { timeoutMs: deadlineMs, headers: SLOW },
        )
        .then(answered, deadlineFailure);
    }
  }
  if (surface === 'ai-sdk') {
    if (kind === 'chat') {
      const { text } = await generateText({ model: s.ai(MODEL), prompt: PROMPT });
      return Response.json({ text });
    }
    if (kind === 'stream') {
      return streamText({ model: s.ai(MODEL), prompt: PROMPT }).toTextStreamResponse();
    }
    if (kind === 'stream-signal') {
      return streamText({
        model: s.ai(MODEL),
        prompt: PROMPT,
        abortSignal: signal,
      }).toTextStreamResponse();
    }
    if (kind === 'abandon') {
      return firstPiece(streamText({ model: s.ai(MODEL), prompt: PROMPT }).textStream);
    }
    if (kind === 'deadline') {
      let slow = s.aiSlow.get(deadlineMs);
      if (slow === undefined) {
        slow = createGateway({ ...s.settings, timeoutMs: deadlineMs });
        s.aiSlow.set(deadlineMs, slow);
      }
      // `ai` owns the AI SDK's retries: a 429 in the race described above is retried by it.
      return generateText({
        model: slow(MODEL),
        prompt: PROMPT,
        maxRetries: 2,
        // The call's own headers reach the chat request only: on the provider they would slow
        // the catalog look-up too, and the deadline would end the call before it was sent.
        headers: SLOW,
      }).then(answered, deadlineFailure);
    }
  }
  if (surface === 'langchain') {
    if (kind === 'chat') {
      const answer = await s.chat.invoke(PROMPT);
      return Response.json({ text: answer.text });
    }
    if (kind === 'stream') return textStream(langchainText(s.chat));
    if (kind === 'abandon') return firstPiece(langchainText(s.chat));
    if (kind === 'deadline') {
      let slow = s.chatSlow.get(deadlineMs);
      if (slow === undefined) {
        slow = new GatewayChatModel({
          model: MODEL,
          ...s.settings,
          timeout: deadlineMs,
        });
        s.chatSlow.set(deadlineMs, slow);
      }
      // The fault header on the chat request only (the catalog look-up before it is quick).
      return slow.invoke(PROMPT, { headers: SLOW }).then(answered, deadlineFailure);
    }
  }
  return new Response(`no route /${surface}/${kind}`, { status: 404 });
}

/** Answers one request of the test app. */
export async function handle(request: Request, settings: Settings): Promise<Response> {
  const url = new URL(request.url);
  const path = url.pathname;
  try {
    if (path === '/config') {
      // Settings from the environment only: where it cannot be read, the call says why.
      const error = await createGatewayClient()
        .models()
        .then(
          () => undefined,
          (e: unknown) => e as { code?: string; message?: string },
        );
      return Response.json({ code: error?.code ?? 'answered', message: error?.message ?? '' });
    }
    const [, surface = '', kind = ''] = path.split('/');
    return await route(
      surfacesFor(settings),
      surface,
      kind,
      Number(url.searchParams.get('ms') ?? 800),
      request.signal,
    );
  } catch (error) {
    return Response.json({ error: codeOf(error), message: String(error) }, { status: 500 });
  }
}

// docs/gateway-protocol.md §2.5 (4 requests at once per key), §10.2 (codes and statuses).
import { handleCapabilities, handleModels } from './catalog';
import { handleChat } from './chat/handle-chat';
import { chooseFault } from './choose-fault';
import {
  createCounters,
  type EmulatorCounters,
  type EndpointName,
  InflightTracker,
  resetCounters,
} from './counters';
import type { FaultRule } from './faults';
import { errorResponse, GatewayRefusal, invalidField } from './gateway-error';
import { resolveChatModel } from './model-access';
import { type ParsedBody, parseBody, type RequestContext } from './request-context';
import { resolveScenario } from './resolve-scenario';
import { notFound, routeOf } from './routes';
import type { KeySettings, Scenario, ScenarioInput } from './scenario';
import { handleEmbeddings } from './services/handle-embeddings';
import { handleOcr } from './services/handle-ocr';
import { handleTranscription } from './services/handle-transcription';
import { handleTranslation } from './services/handle-translation';
import { nextLatency, waitBeforeHeaders } from './timing';
import { applyPreHeaderFault, ConnectionDropped, truncateJsonBody } from './upstream-faults';

/** A local inference gateway behind a WHATWG fetch handler. */
export interface Emulator {
  /**
   * Answers one request; the path must contain `/v1/` (any origin). Takes a `Request`, or the
   * same arguments as the global `fetch`, so it can be passed wherever a fetch function goes.
   */
  fetch(input: Request | string | URL, init?: RequestInit): Promise<Response>;
  /** Live counters (see `EmulatorCounters`). */
  readonly counters: EmulatorCounters;
  resetCounters(): void;
  /** Adds a fault rule at run time (after the scenario's rules). */
  injectFault(rule: FaultRule): void;
  /** Removes the rules added by `injectFault` (the scenario's `faults` stay). */
  clearFaults(): void;
  /** The resolved scenario; mutable (tests may flip availability). */
  scenario: Scenario;
}

/**
 * The largest request body the emulator reads: above the 23 MiB media limit once
 * base64-encoded (23 MiB × 4/3 ≈ 30.7 MiB), so every valid request fits. Larger → 413.
 */
export const MAX_BODY_BYTES = 32 * 1024 * 1024;

/**
 * Reads a body chunk by chunk, refusing (413) as soon as it passes `limit` — or at once when its
 * `Content-Length` says it will — so an oversized upload is never held whole.
 */
async function readBodyCapped(request: Request, limit: number): Promise<Uint8Array<ArrayBuffer>> {
  const tooLarge = (size: string) =>
    new GatewayRefusal(
      'invalid_request_error',
      `The request body is ${size}; the emulator reads at most ${limit} bytes`,
      { status: 413 },
    );
  const declared = Number(request.headers.get('content-length') ?? Number.NaN);
  if (declared > limit) {
    await request.body?.cancel().catch(() => undefined);
    throw tooLarge(`${declared} bytes`);
  }
  if (!request.body) return new Uint8Array();
  const reader = request.body.getReader();
  const chunks: Uint8Array[] = [];
  let total = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    total += value.byteLength;
    if (total > limit) {
      await reader.cancel().catch(() => undefined);
      throw tooLarge(`over ${limit} bytes`);
    }
    chunks.push(value);
  }
  const bytes = new Uint8Array(total);
  let offset = 0;
  for (const chunk of chunks) {
    bytes.set(chunk, offset);
    offset += chunk.byteLength;
  }
  return bytes;
}

function isAbortError(error: unknown): boolean {
  return error instanceof Error && error.name === 'AbortError';
}

function bearerKey(request: Request): string | undefined {
  const header = request.headers.get('authorization');
  const match = header ? /^Bearer\s+(\S+)\s*$/i.exec(header) : null;
  return match?.[1];
}

/** Creates an emulator from a scenario (deep-merged over `defaultScenario()`). */
export function createEmulator(input?: ScenarioInput): Emulator {
  const counters = createCounters();
  const tracker = new InflightTracker(counters);
  const runtimeFaults: FaultRule[] = [];
  const resources = new Map<string, number>();
  let sequence = 0;

  const emulator: Emulator = {
    scenario: resolveScenario(input),
    counters,
    resetCounters: () => resetCounters(counters),
    injectFault: (rule) => {
      runtimeFaults.push({ ...rule });
    },
    clearFaults: () => {
      runtimeFaults.length = 0;
    },
    fetch: async (input, init) =>
      handle(input instanceof Request && init === undefined ? input : new Request(input, init)),
  };

  async function handle(request: Request): Promise<Response> {
    const url = new URL(request.url);
    const route = routeOf(url.pathname);
    if (route) counters.requests[route.endpoint] += 1;
    // The key is checked first, on any path and before the body is read: a request without a
    // valid key costs nothing, whatever it sends.
    const scenario = emulator.scenario;
    const apiKey = bearerKey(request);
    const key = apiKey === undefined ? undefined : scenario.keys[apiKey];
    if (apiKey === undefined || !key) {
      await request.body?.cancel().catch(() => undefined);
      return errorResponse(
        new GatewayRefusal(
          'invalid_api_key',
          apiKey === undefined
            ? 'Missing API key: send the header Authorization: Bearer <API_KEY>'
            : 'Invalid API key',
        ),
      );
    }
    if (!route) return notFound(request.method, url.pathname);
    if (request.method !== route.method) {
      return errorResponse(
        invalidField('method', `Use ${route.method} for ${url.pathname}, not ${request.method}`),
      );
    }
    if (tracker.current(apiKey) >= scenario.maxConcurrentPerKey) {
      counters.concurrencyRejections += 1;
      return errorResponse(
        new GatewayRefusal(
          'client_concurrency_exceeded',
          `This key already runs ${scenario.maxConcurrentPerKey} requests, its limit`,
          { retryAfter: scenario.retryAfterSeconds },
        ),
      );
    }

    const releases: (() => void)[] = [tracker.acquire(apiKey)];
    let handedOff = false;
    const release = () => {
      for (const fn of releases.splice(0)) fn();
    };
    try {
      const deadline = Date.now() + scenario.requestTimeoutMs;
      const bytes =
        request.method === 'POST'
          ? await readBodyCapped(request, MAX_BODY_BYTES)
          : new Uint8Array();
      let parsed: ParsedBody | undefined;
      const body = () => {
        parsed ??= parseBody(bytes);
        return parsed;
      };
      const fault = chooseFault(request, route.endpoint, apiKey, body, [
        scenario.faults,
        runtimeFaults,
      ]);
      const occupy = (resource: string) => {
        const now = (resources.get(resource) ?? 0) + 1;
        resources.set(resource, now);
        releases.push(() => resources.set(resource, (resources.get(resource) ?? 1) - 1));
        return now;
      };
      // A chat request occupies its model from arrival to answer: during the scripted latency and
      // a `slow_headers` fault too, so `/models` `inflight` and `model_busy` count it.
      const arrived = route.endpoint === 'chat' ? occupyChatModel(body(), key, occupy) : undefined;
      await waitBeforeHeaders(nextLatency(scenario.latencyMs), deadline, request.signal);
      if (fault) {
        const early = await applyPreHeaderFault(fault, deadline, request.signal);
        if (early) {
          if (fault.fault === 'rate_limit') counters.concurrencyRejections += 1;
          return early;
        }
      }
      const ctx: RequestContext = {
        scenario,
        apiKey,
        key,
        request,
        bytes,
        body,
        fault,
        deadline,
        signal: request.signal,
        takeRelease: () => {
          handedOff = true;
          return release;
        },
        nextSequence: () => {
          sequence += 1;
          return sequence;
        },
        occupy: (resource) => (arrived?.resource === resource ? arrived.running : occupy(resource)),
      };
      const inflight = (resource: string) => resources.get(resource) ?? 0;
      const response = await dispatch(route.endpoint, ctx, inflight);
      return fault?.fault === 'truncated_json' ? await truncateJsonBody(response) : response;
    } catch (error) {
      if (error instanceof GatewayRefusal) {
        if (error.code === 'client_concurrency_exceeded') counters.concurrencyRejections += 1;
        return errorResponse(error);
      }
      if (error instanceof ConnectionDropped || isAbortError(error)) throw error;
      // A bug or a broken scenario: answer visibly instead of looking like a network failure.
      return new Response(`infergate emulator internal error: ${String(error)}`, {
        status: 500,
        headers: { 'content-type': 'text/plain; charset=utf-8' },
      });
    } finally {
      if (!handedOff) release();
    }
  }

  /** Occupies the model a chat body names, when it names one this key may use. */
  function occupyChatModel(
    parsed: ParsedBody,
    key: KeySettings,
    occupy: (resource: string) => number,
  ): { resource: string; running: number } | undefined {
    const model = parsed.ok ? (parsed.value as { model?: unknown } | null)?.model : undefined;
    if (typeof model !== 'string') return undefined;
    let served: string;
    try {
      served = resolveChatModel(emulator.scenario, key, model).served;
    } catch {
      return undefined; // refused later by the endpoint, with its own error
    }
    const resource = `model:${served}`;
    return { resource, running: occupy(resource) };
  }

  async function dispatch(
    endpoint: EndpointName,
    ctx: RequestContext,
    inflight: (resource: string) => number,
  ): Promise<Response> {
    switch (endpoint) {
      case 'models':
        return handleModels(ctx, inflight);
      case 'capabilities':
        return handleCapabilities(ctx, inflight);
      case 'chat':
        return handleChat(ctx);
      case 'embeddings':
        return handleEmbeddings(ctx);
      case 'ocr':
        return handleOcr(ctx);
      case 'transcriptions':
        return handleTranscription(ctx);
      case 'translations':
        return handleTranslation(ctx);
    }
  }

  return emulator;
}

import { afterEach } from 'vitest';
import { DEFAULT_KEYS, type Emulator, type ScenarioInput } from '../src/index';
import { type EmulateAs, type EmulatedGateway, emulate } from '../src/testing/index';

export const BASE = 'https://gateway.test/v1';

export interface CallOptions {
  method?: string;
  key?: string | null;
  body?: unknown;
  rawBody?: BodyInit;
  headers?: Record<string, string>;
  signal?: AbortSignal;
}

/** Sends one request to an emulator's fetch handler (or any fetch-like function). */
export function call(
  target: Emulator | ((request: Request) => Promise<Response>),
  path: string,
  options: CallOptions = {},
  base = BASE,
): Promise<Response> {
  const headers: Record<string, string> = { ...options.headers };
  const key = options.key === undefined ? DEFAULT_KEYS.full : options.key;
  if (key !== null) headers.authorization = `Bearer ${key}`;
  let body: BodyInit | undefined = options.rawBody;
  if (options.body !== undefined) {
    body = JSON.stringify(options.body);
    headers['content-type'] ??= 'application/json';
  }
  const method = options.method ?? (body === undefined ? 'GET' : 'POST');
  const request = new Request(`${base}${path}`, { method, headers, body, signal: options.signal });
  return typeof target === 'function' ? target(request) : target.fetch(request);
}

export function chat(target: Emulator, body: Record<string, unknown>, options: CallOptions = {}) {
  return call(target, '/chat/completions', { ...options, body });
}

export function userChat(model: string, text: string, extra: Record<string, unknown> = {}) {
  return { model, messages: [{ role: 'user', content: text }], ...extra };
}

export interface ErrorBody {
  error: { code: string; message: string; type?: string; param?: string };
}

export async function errorBodyOf(
  response: Response,
): Promise<ErrorBody['error'] & { status: number }> {
  const body = (await response.json()) as ErrorBody;
  return { status: response.status, ...body.error };
}

/** Parses an SSE body into its `data:` payloads (JSON-parsed, `[DONE]` kept as a string). */
export function parseSse(text: string): unknown[] {
  return text
    .split('\n\n')
    .filter((block) => block.length > 0)
    .map((block) => {
      if (!block.startsWith('data: ')) throw new Error(`Not an SSE data event: ${block}`);
      const data = block.slice('data: '.length);
      return data === '[DONE]' ? data : JSON.parse(data);
    });
}

// biome-ignore lint/suspicious/noExplicitAny: test convenience for reading JSON bodies
export type Json = any;

export function base64(bytes: Uint8Array): string {
  return Buffer.from(bytes).toString('base64');
}

/** The client tool the scripted models call in tool-loop tests ('call get_weather for "Rome"'). */
export const WEATHER_TOOL = {
  type: 'function',
  function: {
    name: 'get_weather',
    parameters: { type: 'object', properties: { city: { type: 'string' } }, required: ['city'] },
  },
};

/** The two requests of a tool loop asking `model` for `ask` with the weather tool. */
export function toolLoop(model: string, ask: string) {
  return {
    /** The model's first answer, whole: its assistant message. */
    async firstAnswer(target: Emulator): Promise<Json> {
      const response = await chat(target, userChat(model, ask, { tools: [WEATHER_TOOL] }));
      return ((await response.json()) as Json).choices[0].message;
    },
    /** The second request: `assistant` replayed as given, then the result of its first call (named by its tool, as Gemini needs). */
    secondRequest(assistant: Json, stream = false) {
      const [{ id, function: called }] = assistant.tool_calls;
      const result = { role: 'tool', tool_call_id: id, name: called.name, content: 'sunny' };
      const messages: Json[] = [{ role: 'user', content: ask }, assistant, result];
      return { model, stream, tools: [WEATHER_TOOL], messages };
    },
  };
}

/**
 * Call at a test file's top level: it returns `emulate({ as, scenario })`, and every gateway made
 * with it is closed after its test (a test may make several, each served its own way).
 */
export function gatewaysPerTest() {
  const open: EmulatedGateway[] = [];
  afterEach(async () => {
    await Promise.all(open.splice(0).map((gateway) => gateway.close()));
  });
  return async (as: EmulateAs, scenario: ScenarioInput = {}) => {
    const gateway = await emulate({ as, scenario });
    open.push(gateway);
    return gateway;
  };
}

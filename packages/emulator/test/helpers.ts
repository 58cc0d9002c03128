import { DEFAULT_KEYS, type Emulator } from '../src/index';

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

export async function errorOf(
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

/** A minimal PCM WAV file: `seconds` of silence at 8 kHz mono 16-bit, optional trailing bytes. */
export function wavFile(seconds: number, extra = ''): Uint8Array<ArrayBuffer> {
  const sampleRate = 8000;
  const dataBytes = Math.round(seconds * sampleRate * 2);
  const tail = new TextEncoder().encode(extra);
  const buffer = new ArrayBuffer(44 + dataBytes + tail.length);
  const view = new DataView(buffer);
  const ascii = (at: number, text: string) => {
    for (let i = 0; i < text.length; i++) view.setUint8(at + i, text.charCodeAt(i));
  };
  ascii(0, 'RIFF');
  view.setUint32(4, 36 + dataBytes, true);
  ascii(8, 'WAVE');
  ascii(12, 'fmt ');
  view.setUint32(16, 16, true);
  view.setUint16(20, 1, true);
  view.setUint16(22, 1, true);
  view.setUint32(24, sampleRate, true);
  view.setUint32(28, sampleRate * 2, true);
  view.setUint16(32, 2, true);
  view.setUint16(34, 16, true);
  ascii(36, 'data');
  view.setUint32(40, dataBytes, true);
  const bytes = new Uint8Array(buffer);
  bytes.set(tail, 44 + dataBytes);
  return bytes;
}

export function base64(bytes: Uint8Array): string {
  return Buffer.from(bytes).toString('base64');
}

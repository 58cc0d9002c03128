// docs/gateway-protocol.md §11 (a 23 MiB image or audio file, as base64, fits in one stdio
// message).
import type { Readable, Writable } from 'node:stream';
import { GatewayError } from '@infergate/core';
import { type ListsEveryKey, refuseUnknownOptions } from '@infergate/core/internal';
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import type { JSONRPCMessage } from '@modelcontextprotocol/sdk/types.js';
import type { GatewayMcpServer } from './gateway-mcp-server';
import { MessageLines, type OversizedLine, oversizedRequest } from './stdio-lines';
import { toolErrorResult } from './tool-errors';

export interface StdioServerOptions {
  /** The stream MCP messages are read from. Default `process.stdin`. */
  stdin?: Readable;
  /** The stream answers are written to. Default `process.stdout`. */
  stdout?: Writable;
}

/** Every key `serveStdio` takes. */
const STDIO_SERVER_OPTION_KEYS = [
  'stdin',
  'stdout',
] as const satisfies readonly (keyof StdioServerOptions)[];
true satisfies ListsEveryKey<StdioServerOptions, typeof STDIO_SERVER_OPTION_KEYS>;

/** A JSON-RPC line may hold a 23 MiB file as base64 (~31 MiB); the SDK's default is 10 MiB. */
const MAX_MESSAGE_BYTES = 40 * 1024 * 1024;

/**
 * Serves one MCP session over stdin/stdout, with `*_path` arguments (files under the allowed
 * roots). Resolves once connected; `closed` resolves when the client closes stdin, which ends the
 * session and cancels its running calls.
 */
export async function serveStdio(
  gateway: GatewayMcpServer,
  options: StdioServerOptions = {},
): Promise<{ closed: Promise<void>; close(): Promise<void> }> {
  // Before stdin is read: a misspelt stream would silently fall back to the process's own.
  refuseUnknownOptions(options, STDIO_SERVER_OPTION_KEYS, 'serveStdio', 'client option');
  const stdin = options.stdin ?? process.stdin;
  // Our own framing first: the SDK's buffer then holds one message at a time, and a message over
  // the limit is answered as a failed call instead of overflowing it (which ends the session).
  const lines = new MessageLines(MAX_MESSAGE_BYTES, (line) => {
    const answer = oversizedAnswer(line);
    if (answer !== undefined) transport.send(answer).catch(() => {});
  });
  stdin.on('error', (error) => lines.destroy(error));
  stdin.pipe(lines);
  const transport = new StdioServerTransport(lines, options.stdout ?? process.stdout, {
    maxBufferSize: MAX_MESSAGE_BYTES + 1,
  });
  const closed = new Promise<void>((resolve) => {
    transport.onclose = () => {
      // (The SDK pauses the stream it reads, `lines`: stdin itself must let go too.)
      stdin.unpipe(lines);
      stdin.pause();
      resolve();
    };
    stdin.once('end', resolve);
  });
  // The client closed stdin: it has gone (the CLI then closes everything). Once the last of its
  // messages is read, the session closes, which cancels its running calls as
  // `notifications/cancelled` would: their gateway requests are aborted and the key's slots freed,
  // as for a Streamable HTTP client gone. (`lines` ends only after its last line was passed on.)
  lines.once('end', () => void transport.close());
  const server = await gateway.connect(transport, { files: true });
  return { closed, close: () => server.close() };
}

/**
 * The answer to a message dropped for its size: a failed tool result for `tools/call` (the README's
 * promise), a JSON-RPC error for anything else (a request whose `method` is not found among its
 * top-level members too), nothing when it has no top-level `id` outside its huge value (a
 * notification).
 */
function oversizedAnswer(line: OversizedLine): JSONRPCMessage | undefined {
  const { id, method, tool } = oversizedRequest(line);
  if (id === undefined) return undefined;
  // Own keys only: a tool named `constructor` or `__proto__` is one we do not know.
  const known = tool !== undefined && Object.hasOwn(OVERSIZED_ADVICE, tool);
  const [field, advice] = (known && OVERSIZED_ADVICE[tool]) || [undefined, ANY_ADVICE];
  const message = `the message is ${line.bytes} bytes; this server reads at most ${MAX_MESSAGE_BYTES} bytes (40 MiB) per message over stdio: ${advice}`;
  if (method !== 'tools/call') return { jsonrpc: '2.0', id, error: { code: -32600, message } };
  const error = new GatewayError({ code: 'invalid_request_error', message, field });
  return { jsonrpc: '2.0', id, result: toolErrorResult(error) };
}

/**
 * A file over 23 MiB is refused however it is given (base64, a path, a URL download: the same
 * limit), so the advice names no other argument: whichever a session takes, none takes it.
 */
const FILE_ADVICE =
  'enough for a 23 MiB file as base64, and 23 MiB is the most a file may be however it is given (a path or a URL too): send a smaller';
/** What fits instead, per tool: the argument that made the message too big, and what to do. */
const OVERSIZED_ADVICE: Readonly<Record<string, [string, string]>> = {
  embed: [
    'texts',
    'send fewer or shorter texts per call (split the list over several embed calls)',
  ],
  similarity: ['texts', 'send fewer or shorter texts per call (rank them in several calls)'],
  translate: ['text', 'send a shorter text per call (split it over several translate calls)'],
  ask_model: ['prompt', 'send a shorter prompt'],
  ocr: ['image_base64', `${FILE_ADVICE} image`],
  transcribe: ['audio_base64', `${FILE_ADVICE} or shorter recording`],
};
/** A message whose tool is not known: both ways. */
const ANY_ADVICE = `${FILE_ADVICE} file; send texts in fewer or shorter pieces per call`;

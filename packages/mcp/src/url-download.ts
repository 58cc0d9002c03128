import { type ClientRequest, request as httpRequest, type IncomingMessage } from 'node:http';
import { request as httpsRequest } from 'node:https';
import type { LookupFunction } from 'node:net';
import { Readable } from 'node:stream';
import { FileAccessError } from './allowed-roots';
import { type UrlGuard, UrlRefusedError } from './url-guard';

/** Redirects the server follows itself, each hop judged like the first URL. */
export const MAX_REDIRECTS = 5;

/** The waits of the server's own requests: those of Node's `fetch` (undici's defaults). */
export interface DownloadTimeouts {
  /** From the request to an open connection (ms). Default 10000. */
  connectMs: number;
  /** Nothing received for this long, before or after the headers, ends the download (ms). Default 300000. */
  idleMs: number;
}

const DEFAULT_TIMEOUTS: DownloadTimeouts = { connectMs: 10_000, idleMs: 300_000 };

export interface UrlDownloadOptions {
  /** Where downloads may connect. */
  guard: UrlGuard;
  /**
   * A fetch of the caller's own. The guard judges the URL's host and what it resolves to before
   * the fetch is called; the fetch then owns its connection (its own look-up, proxy, pinning).
   * Undefined: the server's own node:http(s) requests, which connect only to judged addresses.
   */
  fetch: typeof fetch | undefined;
  timeouts?: Partial<DownloadTimeouts>;
}

const REDIRECTS = new Set([301, 302, 303, 307, 308]);

/** A download's failure, named by its code (never the thrower's message: it can quote the URL). */
class DownloadFailed extends Error {
  readonly code: string;
  /** Whether it may be gone later (a timeout), not the answer as such (an impossible status). */
  readonly transient: boolean;
  constructor(code: string, transient = false) {
    super(code);
    this.code = code;
    this.transient = transient;
  }
}

/**
 * Node's (and undici's) codes of a connection that failed for now: timed out, reset, refused, a
 * DNS server that did not answer. Any other (a host name that does not exist, a certificate
 * refused, a TLS failure) fails the same way again.
 */
const TRANSIENT_CODES = new Set([
  'ETIMEDOUT',
  'ESOCKETTIMEDOUT',
  'ECONNRESET',
  'ECONNABORTED',
  'ECONNREFUSED',
  'EPIPE',
  'EAI_AGAIN',
]);
const isTransientCode = (code: unknown) =>
  typeof code === 'string' && (TRANSIENT_CODES.has(code) || code.startsWith('UND_ERR_'));

/** The URL, if it may be downloaded at all: http(s), no credentials. */
function checkedUrl(url: URL): URL {
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    throw new FileAccessError(`only http(s) URLs are downloaded, not ${url.protocol}`);
  }
  if (url.username !== '' || url.password !== '') {
    throw new FileAccessError(
      `the URL for ${url.host} carries credentials, which are not sent; use a URL without them`,
    );
  }
  return url;
}

/**
 * Downloads `url` at most `limit` bytes long: the URL and every redirect (followed here, at most
 * `MAX_REDIRECTS`) judged by the guard; a larger `Content-Length` is refused before the body is
 * read, a longer body while it is read. Messages name hosts only: a URL may carry a secret (a
 * signed query) in its path or query.
 */
export async function downloadUrl(
  url: string,
  limit: number,
  what: string,
  options: UrlDownloadOptions,
  signal: AbortSignal,
): Promise<Uint8Array> {
  let current: URL;
  try {
    current = checkedUrl(new URL(url));
  } catch (error) {
    if (error instanceof FileAccessError) throw error;
    throw new FileAccessError('the URL is malformed');
  }
  const first = current.host;
  for (let redirects = 0; ; redirects++) {
    const via = redirects === 0 ? undefined : first;
    const response = await fetchOnce(current, via, options, signal);
    if (!REDIRECTS.has(response.status))
      return readBody(response, current.host, limit, what, signal);
    await response.body?.cancel();
    const location = response.headers.get('location');
    if (location === null) {
      throw new FileAccessError(
        `the download from ${current.host} answered HTTP ${response.status} without a Location`,
      );
    }
    if (redirects === MAX_REDIRECTS) {
      throw new FileAccessError(
        `the download from ${first} was redirected more than ${MAX_REDIRECTS} times`,
      );
    }
    let next: URL;
    try {
      next = new URL(location, current);
    } catch {
      throw new FileAccessError(`the download from ${current.host} redirected to a malformed URL`);
    }
    current = checkedUrl(next);
  }
}

/** One request, no redirect followed; refusals and failures as the tool's errors. */
async function fetchOnce(
  url: URL,
  via: string | undefined,
  options: UrlDownloadOptions,
  signal: AbortSignal,
): Promise<Response> {
  try {
    options.guard.checkHost(url, via);
    if (options.fetch === undefined) {
      const timeouts = { ...DEFAULT_TIMEOUTS, ...options.timeouts };
      return await requestOnce(url, options.guard.lookupFor(url, via), timeouts, signal);
    }
    if (!options.guard.allowsAll) await options.guard.addressesOf(url, via);
    return await options.fetch(url, { signal, redirect: 'manual' });
  } catch (error) {
    throw failure(error, url.host, signal);
  }
}

/** What a failed step throws: a refusal or the caller's abort as they are, anything else by its code. */
function failure(error: unknown, host: string, signal: AbortSignal): unknown {
  if (error instanceof UrlRefusedError || error instanceof FileAccessError) return error;
  if (signal.aborted) return signal.reason;
  // Node's errors carry a code; fetch's carry it on their cause.
  const { code, cause } = error as { code?: unknown; cause?: { code?: unknown } };
  const named = typeof code === 'string' ? code : cause?.code;
  const failed = new FileAccessError(
    `the download from ${host} failed (${typeof named === 'string' ? named : 'network error'})`,
  );
  const own = [error, cause].find((thrown) => thrown instanceof DownloadFailed);
  failed.transient = own ? own.transient : isTransientCode(code) || isTransientCode(cause?.code);
  return failed;
}

/** A download's HTTP status that may be gone later: the server's failure, a rate limit, a timeout. */
const TRANSIENT_STATUS = (status: number) => status >= 500 || status === 429 || status === 408;

/** A GET through node:http(s), connected through `lookup` only (and to a judged IP literal). */
function requestOnce(
  url: URL,
  lookup: LookupFunction,
  timeouts: DownloadTimeouts,
  signal: AbortSignal,
): Promise<Response> {
  return new Promise((resolve, reject) => {
    const send = url.protocol === 'https:' ? httpsRequest : httpRequest;
    let answer: IncomingMessage | undefined;
    // No pooled sockets (`agent: false`): a socket another request opened was not judged here.
    // No Accept-Encoding: the size limit applies to the bytes as sent, never inflated.
    const req: ClientRequest = send(
      url,
      { method: 'GET', agent: false, lookup, signal, timeout: timeouts.idleMs },
      (res) => {
        answer = res;
        try {
          resolve(toResponse(res));
        } catch (error) {
          res.destroy();
          req.destroy();
          reject(error);
        }
      },
    );
    req.on('timeout', () => {
      // Before the headers the request fails; after them, the body being read.
      const stalled = new DownloadFailed(`nothing received for ${timeouts.idleMs} ms`, true);
      if (answer === undefined) req.destroy(stalled);
      else answer.destroy(stalled);
    });
    req.on('socket', (socket) => {
      if (!socket.connecting) return;
      const timer = setTimeout(
        () =>
          req.destroy(new DownloadFailed(`no connection within ${timeouts.connectMs} ms`, true)),
        timeouts.connectMs,
      );
      socket.once('connect', () => clearTimeout(timer));
      socket.once('close', () => clearTimeout(timer));
    });
    req.on('error', reject);
    req.end();
  });
}

/** Node's answer as a fetch `Response` (status, headers, the body as a stream). */
function toResponse(res: IncomingMessage): Response {
  const headers = new Headers();
  for (let i = 0; i + 1 < res.rawHeaders.length; i += 2) {
    headers.append(res.rawHeaders[i]!, res.rawHeaders[i + 1]!);
  }
  const status = res.statusCode ?? 0;
  if (status < 200 || status > 599) {
    // Outside what a fetch Response can hold (a 101, a made-up code): a failed download.
    throw new DownloadFailed(`HTTP ${status}`);
  }
  const nullBody = status === 204 || status === 205 || status === 304;
  if (nullBody) res.resume();
  const body = nullBody ? null : (Readable.toWeb(res) as ReadableStream<Uint8Array>);
  return new Response(body, { status, headers });
}

async function readBody(
  response: Response,
  where: string,
  limit: number,
  what: string,
  signal: AbortSignal,
): Promise<Uint8Array> {
  if (!response.ok) {
    await response.body?.cancel();
    const error = new FileAccessError(
      `the download from ${where} answered HTTP ${response.status}`,
    );
    error.transient = TRANSIENT_STATUS(response.status);
    throw error;
  }
  const declared = Number(response.headers.get('content-length'));
  if (Number.isFinite(declared) && declared > limit) {
    await response.body?.cancel();
    throw new FileAccessError(
      `the file at ${where} is ${declared} bytes; the gateway takes ${what} of at most ${limit} bytes`,
    );
  }
  const reader = response.body?.getReader();
  if (reader === undefined) throw new FileAccessError(`the download from ${where} had no body`);
  const chunks: Uint8Array[] = [];
  let size = 0;
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      size += value.length;
      if (size > limit) {
        await reader.cancel();
        throw new FileAccessError(
          `the file at ${where} is larger than ${limit} bytes, the gateway's limit for ${what}`,
        );
      }
      chunks.push(value);
    }
  } catch (error) {
    throw failure(error, where, signal);
  }
  if (size === 0) throw new FileAccessError(`the file at ${where} is empty`);
  const bytes = new Uint8Array(size);
  let offset = 0;
  for (const chunk of chunks) {
    bytes.set(chunk, offset);
    offset += chunk.length;
  }
  return bytes;
}

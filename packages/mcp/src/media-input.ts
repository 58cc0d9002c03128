import type { AudioLike } from '@infergate/core';
import { type AllowedRoots, FileAccessError } from './allowed-roots';

export interface MediaSources {
  /** Where `*_path` may read from; undefined: paths are refused (the HTTP transport). */
  roots: AllowedRoots | undefined;
  /** Whether `*_url` is fetched. */
  allowUrls: boolean;
  /** The fetch function for those downloads. */
  mediaFetch: typeof fetch;
}

/**
 * The image or audio a tool was given — `<kind>_path`, `<kind>_url` or `<kind>_base64` (the schema
 * lets exactly one through) — as what core's `ocr` / `transcribe` take. Base64 goes to core as it
 * is (core normalises and checks it); files and downloads are refused past `limitBytes` before they
 * are read whole.
 */
export async function readMedia(
  kind: 'image' | 'audio',
  args: Record<string, unknown>,
  limitBytes: number,
  sources: MediaSources,
  signal: AbortSignal,
): Promise<AudioLike> {
  const base64 = args[`${kind}_base64`];
  if (typeof base64 === 'string') return base64;
  const what = kind === 'image' ? 'images' : 'audio files';
  const path = args[`${kind}_path`];
  if (typeof path === 'string') {
    if (sources.roots === undefined) {
      throw new FileAccessError(
        `${kind}_path is not accepted on this transport; send ${kind}_url or ${kind}_base64`,
      );
    }
    return sources.roots.read(path, limitBytes, what);
  }
  const url = args[`${kind}_url`];
  if (typeof url === 'string') {
    if (!sources.allowUrls) {
      throw new FileAccessError(
        `this server does not download URLs; send ${kind}_base64${sources.roots ? ` or ${kind}_path` : ''}`,
      );
    }
    return download(url, limitBytes, what, sources.mediaFetch, signal);
  }
  throw new FileAccessError(`no ${kind} was given`);
}

async function download(
  url: string,
  limit: number,
  what: string,
  fetchImpl: typeof fetch,
  signal: AbortSignal,
): Promise<Uint8Array> {
  const parsed = new URL(url);
  if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:') {
    throw new FileAccessError(`only http(s) URLs are downloaded, not ${parsed.protocol}`);
  }
  // The URL may carry a secret (credentials, a signed query): messages name only the host, and
  // never quote fetch's own message (it can quote the URL).
  const where = parsed.host;
  if (parsed.username !== '' || parsed.password !== '') {
    throw new FileAccessError(
      `the URL for ${where} carries credentials, which are not sent; use a URL without them`,
    );
  }
  let response: Response;
  try {
    response = await fetchImpl(parsed, { signal, redirect: 'follow' });
  } catch (error) {
    if (signal.aborted) throw signal.reason;
    const cause = (error as { cause?: { code?: unknown } }).cause;
    const code = typeof cause?.code === 'string' ? cause.code : 'network error';
    throw new FileAccessError(`the download from ${where} failed (${code})`);
  }
  if (!response.ok) {
    await response.body?.cancel();
    throw new FileAccessError(`the download from ${where} answered HTTP ${response.status}`);
  }
  const declared = Number(response.headers.get('content-length'));
  if (Number.isFinite(declared) && declared > limit) {
    await response.body?.cancel();
    throw new FileAccessError(
      `the file at ${where} is ${declared} bytes; the gateway takes ${what} of at most ${limit} bytes`,
    );
  }
  const chunks: Uint8Array[] = [];
  let size = 0;
  const reader = response.body?.getReader();
  if (reader === undefined) throw new FileAccessError(`the download from ${where} had no body`);
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
  if (size === 0) throw new FileAccessError(`the file at ${where} is empty`);
  const bytes = new Uint8Array(size);
  let offset = 0;
  for (const chunk of chunks) {
    bytes.set(chunk, offset);
    offset += chunk.length;
  }
  return bytes;
}

// docs/gateway-protocol.md §8 (the image), §9 (the audio), §11 (23 MiB): read from base64, a file
// or a URL.
import type { AudioLike } from '@infergate/core';
import { type AllowedRoots, FileAccessError } from './allowed-roots';
import { downloadUrl } from './url-download';
import { type UrlGuard, UrlRefusedError } from './url-guard';

export interface MediaSources {
  /** Where `*_path` may read from; undefined: paths are refused (the HTTP transport). */
  roots: AllowedRoots | undefined;
  /** Whether `*_url` is fetched. */
  allowUrls: boolean;
  /** Where those downloads may connect (by default: public internet addresses only). */
  guard: UrlGuard;
  /** A fetch of the caller's own for those downloads; undefined: the server's own requests. */
  mediaFetch: typeof fetch | undefined;
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
  try {
    return await readGiven(kind, args, limitBytes, sources, signal);
  } catch (error) {
    if (error instanceof FileAccessError || error instanceof UrlRefusedError) {
      const transient = error instanceof FileAccessError && error.transient;
      error.whatToDo ??= mediaAdvice(kind, args, sources, transient);
    }
    throw error;
  }
}

/**
 * What a model refused a file can send instead, named as the tool's arguments that this server
 * takes (`<kind>_path` only with roots, `<kind>_url` only when it downloads): the model reads
 * this, not the server's flags (those are the operator's, in the README). `transient`: a
 * download that failed for now (`FileAccessError.transient`), not a URL refused as such.
 */
function mediaAdvice(
  kind: 'image' | 'audio',
  args: Record<string, unknown>,
  sources: MediaSources,
  transient: boolean,
): string {
  const base64 = `the file's bytes as ${kind}_base64`;
  const url = sources.allowUrls
    ? `a public ${kind}_url (on the internet, not an internal host)`
    : undefined;
  const path = sources.roots ? `an ${kind}_path under the allowed roots` : undefined;
  const either = (...ways: (string | undefined)[]) => ways.filter(Boolean).join(', or ');
  if (typeof args[`${kind}_path`] === 'string' && path !== undefined) {
    return `Give the path of an existing file under the allowed roots the message names, or send ${either(base64, url)}.`;
  }
  if (typeof args[`${kind}_url`] === 'string' && url !== undefined) {
    // A server failing or limiting for now (5xx, 429, a network failure) may answer later.
    if (transient) return `Try the same URL again in a while, or send ${either(base64, path)}.`;
    return `Send ${either(url, base64, path)}; the same URL fails the same way again.`;
  }
  return `Send ${either(base64, url, path)}.`;
}

async function readGiven(
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
    const options = { guard: sources.guard, fetch: sources.mediaFetch };
    return downloadUrl(url, limitBytes, what, options, signal);
  }
  throw new FileAccessError(`no ${kind} was given`);
}

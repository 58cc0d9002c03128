import { constants } from 'node:fs';
import { lstat, open, realpath, stat } from 'node:fs/promises';
import { dirname, isAbsolute, relative, resolve, sep } from 'node:path';
import { GatewayError } from '@infergate/core';
import { escapeControl } from '@infergate/core/internal';

/** A file the server refuses to read; the message says why, for the model to act on. */
export class FileAccessError extends Error {
  override readonly name = 'FileAccessError';
  /**
   * What the model can do instead, in the tool's words (the arguments it may send), set by the
   * tool that knows them (media-input.ts); undefined: the result's generic advice.
   */
  whatToDo: string | undefined;
  /**
   * A download that may succeed later (the server answered 5xx, 429 or 408, or the network
   * failed), not a URL or file refused as such.
   */
  transient = false;
}

/**
 * Reads files only from under the allowed roots: the path is resolved (relative to the first
 * root), every symbolic link followed (`realpath`), and the real path must lie inside a root's
 * real path — so `..` and links that point out of a root are refused. The size is checked from
 * the file's metadata before a byte is read, and checked again on the opened handle (the file may
 * have changed in between).
 */
export class AllowedRoots {
  readonly #roots: string[];
  #realRoots: Promise<string[]> | undefined;

  constructor(roots: readonly string[]) {
    if (roots.length === 0) throw new TypeError('at least one allowed root is required');
    this.#roots = roots.map((root) => resolve(root));
  }

  get roots(): readonly string[] {
    return this.#roots;
  }

  /** The file's bytes, or a `FileAccessError` saying why it may not be read. */
  async read(path: string, limitBytes: number, what: string): Promise<Uint8Array> {
    const real = await this.#realPathInside(path);
    const info = await stat(real);
    if (!info.isFile()) throw new FileAccessError(`${path} is not a regular file`);
    checkSize(path, info.size, limitBytes, what);
    // O_NONBLOCK: a file swapped for a FIFO after the check must not hang the open.
    const handle = await open(real, constants.O_RDONLY | constants.O_NONBLOCK);
    try {
      const opened = await handle.stat();
      if (!opened.isFile() || opened.ino !== info.ino || opened.dev !== info.dev) {
        throw new FileAccessError(`${path} changed while it was being opened; try again`);
      }
      checkSize(path, opened.size, limitBytes, what);
      const bytes = new Uint8Array(opened.size);
      let offset = 0;
      while (offset < bytes.length) {
        const { bytesRead } = await handle.read(bytes, offset, bytes.length - offset, offset);
        if (bytesRead === 0) break;
        offset += bytesRead;
      }
      return offset === bytes.length ? bytes : bytes.subarray(0, offset);
    } finally {
      await handle.close();
    }
  }

  async #realPathInside(path: string): Promise<string> {
    if (path.includes('\0')) throw new FileAccessError('the path contains a NUL character');
    const absolute = resolve(this.#roots[0]!, path);
    let real: string;
    try {
      real = await realpath(absolute);
    } catch (error) {
      // A path not provably inside a root is refused as outside: saying that it does not exist
      // would tell a client which files exist beyond the roots (through a symlink too).
      if (!(await this.#ancestorInside(absolute))) throw this.#outside(path);
      const code = (error as NodeJS.ErrnoException).code;
      if (code === 'ENOENT' || code === 'ENOTDIR') {
        throw new FileAccessError(`${path} does not exist (${this.#describeRoots()})`);
      }
      throw new FileAccessError(`${path} cannot be opened (${code ?? 'unknown error'})`);
    }
    const roots = await this.#realRootPaths();
    if (!roots.some((root) => isInside(real, root))) throw this.#outside(path);
    return real;
  }

  /**
   * Whether the deepest existing ancestor of a path that does not resolve is, resolved, inside a
   * root: a symlink on the way is followed, and one that resolves nowhere (dangling) is not
   * inside, as nothing after it can be known to be.
   */
  async #ancestorInside(absolute: string): Promise<boolean> {
    let ancestor = absolute;
    while (!(await entryExists(ancestor))) {
      const parent = dirname(ancestor);
      if (parent === ancestor) return false;
      ancestor = parent;
    }
    const real = await realpath(ancestor).catch(() => undefined);
    if (real === undefined) return false;
    const roots = await this.#realRootPaths();
    return roots.some((root) => isInside(real, root));
  }

  #outside(path: string): FileAccessError {
    return new FileAccessError(
      `${path} is outside the allowed roots (${this.#describeRoots()}); the server reads files only under them`,
    );
  }

  #realRootPaths(): Promise<string[]> {
    this.#realRoots ??= Promise.all(this.#roots.map((root) => realpath(root).catch(() => root)));
    return this.#realRoots;
  }

  #describeRoots(): string {
    return `allowed roots: ${this.#roots.join(', ')}`;
  }
}

/**
 * Refuses a root that is not a directory (missing, or a file) with `configuration_error` naming
 * it: served anyway, every path under it would be refused as "outside the allowed roots", a
 * misspelt root never told.
 */
export async function checkRootDirectories(roots: readonly string[], flag: string): Promise<void> {
  for (const root of roots) {
    const entry = await stat(root).catch(() => undefined);
    if (entry?.isDirectory()) continue;
    const what = entry === undefined ? 'does not exist' : 'is not a directory';
    throw new GatewayError({
      code: 'configuration_error',
      message: `${flag} "${escapeControl(resolve(root))}" ${what}: give a directory the tools may read files from`,
      field: flag,
    });
  }
}

/** Whether the directory entry exists (a dangling symlink too: it is not followed). */
async function entryExists(path: string): Promise<boolean> {
  try {
    await lstat(path);
    return true;
  } catch {
    return false;
  }
}

function isInside(path: string, root: string): boolean {
  const rel = relative(root, path);
  return rel === '' || (!isAbsolute(rel) && rel !== '..' && !rel.startsWith(`..${sep}`));
}

function checkSize(path: string, size: number, limit: number, what: string): void {
  if (size === 0)
    throw new FileAccessError(`${path} is empty; the gateway takes ${what} of at least 1 byte`);
  if (size > limit) {
    throw new FileAccessError(
      `${path} is ${size} bytes; the gateway takes ${what} of at most ${limit} bytes (${limit / 1024 / 1024} MiB)`,
    );
  }
}

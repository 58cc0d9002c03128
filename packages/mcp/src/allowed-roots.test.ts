import { mkdir, mkdtemp, open, rm, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AllowedRoots, FileAccessError } from './allowed-roots';

let base: string;
let root: string;
let roots: AllowedRoots;
const LIMIT = 1024;

beforeAll(async () => {
  base = await mkdtemp(join(tmpdir(), 'allowed-roots-'));
  root = join(base, 'root');
  await mkdir(join(root, 'sub'), { recursive: true });
  await mkdir(join(base, 'outside'));
  await writeFile(join(root, 'sub', 'ok.bin'), 'inside');
  await writeFile(join(base, 'outside', 'secret.bin'), 'secret');
  await symlink(join(base, 'outside', 'secret.bin'), join(root, 'link-out.bin'));
  await symlink(join(base, 'outside'), join(root, 'dir-out'));
  await symlink(join(root, 'sub', 'ok.bin'), join(root, 'link-in.bin'));
  await writeFile(join(root, 'empty.bin'), '');
  // A sparse file far larger than the limit: reading it would take gigabytes of memory.
  const huge = await open(join(root, 'huge.bin'), 'w');
  await huge.truncate(8 * 1024 ** 3);
  await huge.close();
  roots = new AllowedRoots([root]);
});
afterAll(() => rm(base, { recursive: true, force: true }));

const read = (path: string) => roots.read(path, LIMIT, 'images');
const text = async (path: string) => Buffer.from(await read(path)).toString();

describe('AllowedRoots', () => {
  it('reads files under the root, by relative or absolute path, and links that stay inside', async () => {
    expect(await text('sub/ok.bin')).toBe('inside');
    expect(await text(join(root, 'sub', 'ok.bin'))).toBe('inside');
    expect(await text('link-in.bin')).toBe('inside');
    expect(await text('sub/../sub/ok.bin')).toBe('inside');
  });

  // (The paths are made when the test runs: `base` is made before all tests.)
  it.each([
    {
      what: 'traversal, absolute paths and symbolic links that lead out of the root',
      paths: () => [
        '../outside/secret.bin',
        'sub/../../outside/secret.bin',
        join(base, 'outside', 'secret.bin'),
        'link-out.bin',
        'dir-out/secret.bin',
        '/etc/passwd',
      ],
    },
    {
      what: 'a missing path outside the roots as outside: it does not say what exists there',
      paths: () => [
        '../outside/missing.bin',
        '../../nowhere/missing.bin',
        '/nowhere/missing',
        // Beyond a link out of the root: a missing file is outside, as an existing one is.
        'dir-out/missing.bin',
        'dir-out/no/such/file.bin',
      ],
    },
  ])('refuses $what', async ({ paths }) => {
    for (const path of paths()) {
      await expect(read(path), path).rejects.toThrow(/outside the allowed roots/);
    }
  });

  it('refuses an oversized file from its size, before reading it', async () => {
    const error = await read('huge.bin').catch((e: unknown) => e);
    expect(error).toBeInstanceOf(FileAccessError);
    expect((error as Error).message).toBe(
      `huge.bin is ${8 * 1024 ** 3} bytes; the gateway takes images of at most ${LIMIT} bytes (0.0009765625 MiB)`,
    );
  });

  it('refuses empty files, directories, missing files and NUL bytes', async () => {
    await expect(read('empty.bin')).rejects.toThrow(/is empty/);
    await expect(read('sub')).rejects.toThrow(/not a regular file/);
    await expect(read('missing.bin')).rejects.toThrow(/does not exist/);
    await expect(read('sub/ok.bin\0.png')).rejects.toThrow(/NUL/);
  });

  it('accepts several roots', async () => {
    const both = new AllowedRoots([root, join(base, 'outside')]);
    expect(
      Buffer.from(await both.read(join(base, 'outside', 'secret.bin'), LIMIT, 'x')).toString(),
    ).toBe('secret');
  });
});

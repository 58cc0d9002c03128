/** Issue 50's wording: the source says "space", never "room", for what a limit leaves. */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { expect, it } from 'vitest';

it('no source file says "room"', () => {
  const dir = join(import.meta.dirname, '../src');
  const saying = readdirSync(dir).filter((file) =>
    /\broom\b/i.test(readFileSync(join(dir, file), 'utf8')),
  );
  expect(saying).toEqual([]);
});

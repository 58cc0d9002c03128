/**
 * An `Authorization` call header is refused before anything is sent — the catalog read too — by
 * every entry point (rv-fix2 F4): `.stream()` and `streamEvents` read `GET /models` (whether the
 * model streams) before core's call began, so core's check came after that read.
 */
import { describe, expect, it } from 'vitest';
import { type EntryPoint, entryPoints, refusedBeforeSending } from './refused-before-sending';

const headers = { Authorization: 'Bearer sk-tenant-SECRET42' };

const ENTRIES: EntryPoint[] = [
  ...entryPoints('hi', { headers }),
  ['batch', (model) => model.batch(['hi'], { headers }, { returnExceptions: false })],
];

describe('an Authorization call header', () => {
  it.each(ENTRIES)('%s: refused with nothing sent', async (_, run) => {
    const { refused, sent } = await refusedBeforeSending(run);
    expect(refused).toMatchObject({ code: 'configuration_error', field: 'headers' });
    expect(refused?.message).not.toContain('SECRET42');
    expect(sent).toEqual([]);
  });
});

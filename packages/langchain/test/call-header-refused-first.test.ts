/**
 * An `Authorization` call header is refused before anything is sent — the catalog read too — by
 * every entry point (rv-fix2 F4): `.stream()` and `streamEvents` read `GET /models` (whether the
 * model streams) before core's call began, so core's check came after that read.
 */
import { emulate } from '@infergate/emulator/testing';
import { describe, expect, it } from 'vitest';
import { GatewayChatModel } from '../src/index';
import { intercepting } from './helpers';

const headers = { Authorization: 'Bearer sk-tenant-SECRET42' };

const ENTRIES: [string, (model: GatewayChatModel) => Promise<unknown>][] = [
  ['invoke', (model) => model.invoke('hi', { headers })],
  [
    'stream',
    async (model) => {
      for await (const _ of await model.stream('hi', { headers }));
    },
  ],
  [
    'streamEvents',
    async (model) => {
      for await (const _ of model.streamEvents('hi', { version: 'v2', headers }));
    },
  ],
  ['batch', (model) => model.batch(['hi'], { headers }, { returnExceptions: false })],
];

describe('an Authorization call header', () => {
  it.each(ENTRIES)('%s: refused with nothing sent', async (_, run) => {
    const gateway = await emulate();
    const sent: string[] = [];
    const connection = intercepting(gateway, async (request) => {
      sent.push(new URL(request.url).pathname);
      return undefined;
    });
    const model = new GatewayChatModel('community/general', connection);
    const refused = await run(model).then(
      () => undefined,
      (error: unknown) => error as { code?: string; field?: string; message: string },
    );
    expect(refused).toMatchObject({ code: 'configuration_error', field: 'headers' });
    expect(refused?.message).not.toContain('SECRET42');
    expect(sent).toEqual([]);
    await gateway.close();
  });
});

/**
 * A request core refuses is refused before anything is sent on the stream path too (rv-lc10 F3):
 * `.stream()` read `GET /models` (whether the model streams) before core checked the messages,
 * while `invoke` sent nothing.
 */
import { emulate } from '@infergate/emulator/testing';
import { describe, expect, it } from 'vitest';
import { GatewayChatModel } from '../src/index';
import { intercepting } from './helpers';

const ENTRIES: [string, (model: GatewayChatModel) => Promise<unknown>][] = [
  ['invoke', (model) => model.invoke([])],
  [
    'stream',
    async (model) => {
      for await (const _ of await model.stream([]));
    },
  ],
  [
    'streamEvents',
    async (model) => {
      for await (const _ of model.streamEvents([], { version: 'v2' }));
    },
  ],
];

describe('a chat with no messages', () => {
  it.each(ENTRIES)('%s: refused naming messages, with nothing sent', async (_, run) => {
    const gateway = await emulate();
    const sent: string[] = [];
    const connection = intercepting(gateway, async (request) => {
      sent.push(new URL(request.url).pathname);
      return undefined;
    });
    const model = new GatewayChatModel('community/general', connection);
    const refused = await run(model).then(
      () => undefined,
      (error: unknown) => error as { code?: string; field?: string },
    );
    expect(refused).toMatchObject({ code: 'invalid_request_error', field: 'messages' });
    expect(sent).toEqual([]);
    await gateway.close();
  });
});

// A model id padded with whitespace (`'my/desk-model '`) is refused before anything is sent, as
// the call's `model` and as each `fallbackModels` id, steered or not: the gateway knows ids only
// exactly as `GET /models` lists them, so a padded one would be sent as another model (a 404
// ending the call with `model_not_found` instead of its real failure) or taken for an unlisted one.
import { emulate } from '@infergate/emulator/testing';
import { describe, expect, it } from 'vitest';
import { caught, clientOn, hi } from './helpers';

const WHITESPACE = /has leading or trailing whitespace \("my\/desk-model "\)/;

describe('a model id with surrounding whitespace', () => {
  it("refuses a padded fallback id (the call's own model, padded), naming its index", async () => {
    const gateway = await emulate();
    gateway.emulator.injectFault({ fault: 'service_unavailable', model: 'my/desk-model' });
    const client = clientOn(gateway, { maxRetries: 0 });
    const error = await caught(() =>
      client.chat(hi('my/desk-model'), { fallbackModels: ['my/desk-model '] }),
    );
    expect(error).toMatchObject({ code: 'invalid_request_error', field: 'fallbackModels[0]' });
    expect(error.message).toMatch(WHITESPACE);
    expect(gateway.counters.requests.chat ?? 0).toBe(0);
  });

  it.each([
    { name: 'with a list', options: { fallbackModels: ['community/general'] } },
    { name: 'without one', options: undefined },
  ])('refuses a padded model $name, before the catalog is read', async ({ options }) => {
    const gateway = await emulate();
    const client = clientOn(gateway);
    for (const model of ['my/desk-model ', ' community/general', 'community/general\n']) {
      const error = await caught(() => client.chat(hi(model), options));
      expect(error).toMatchObject({ code: 'invalid_request_error', field: 'model' });
      expect(error.message).toContain('has leading or trailing whitespace');
    }
    const stream = await caught(() => client.chatStream(hi('my/desk-model '), options));
    expect(stream.message).toMatch(WHITESPACE);
    expect(gateway.counters.requests.chat ?? 0).toBe(0);
    expect(gateway.counters.requests.models ?? 0).toBe(0);
  });

  it('quotes the id escaped and cut: a tab shows as \\t, a long id stays short', async () => {
    const gateway = await emulate();
    const client = clientOn(gateway);
    const tab = await caught(() => client.chat(hi(), { fallbackModels: ['community/tools\t'] }));
    expect(tab).toMatchObject({ code: 'invalid_request_error', field: 'fallbackModels[0]' });
    expect(tab.message).toContain('("community/tools\\t")');
    const long = `community/${'x'.repeat(5_000)} `;
    const refused = await caught(() => client.chat(hi(long)));
    expect(refused.message.length).toBeLessThan(300);
  });

  it('the capability gate refuses a padded id the same (checkModel)', async () => {
    const gateway = await emulate();
    const error = await caught(() => clientOn(gateway).checkModel('community/general ', 'chat'));
    expect(error).toMatchObject({ code: 'invalid_request_error', field: 'model' });
    expect(gateway.counters.requests.models ?? 0).toBe(0);
  });
});

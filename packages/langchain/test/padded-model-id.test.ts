// A model id padded with whitespace, through invoke against the emulator: core refuses it before
// anything is sent (`model: ' id '`, a padded `fallbackModels` id as a field or a call option),
// naming the field, as every path of core does.
import { caught, emulate } from '@infergate/emulator/testing';
import { describe, expect, it } from 'vitest';
import { GatewayChatModel } from '../src';

const WHITESPACE = 'has leading or trailing whitespace';

describe('a padded model id through invoke', () => {
  it.each([' community/general', 'my/desk-model '])(
    'model: %j is refused before the catalog or a chat request',
    async (id) => {
      const gateway = await emulate();
      const model = new GatewayChatModel({ ...gateway.connection, model: id });
      const error = await caught(model.invoke('hi'));
      expect(error).toMatchObject({ code: 'invalid_request_error', field: 'model' });
      expect((error as Error).message).toContain(WHITESPACE);
      expect(gateway.counters.requests.chat ?? 0).toBe(0);
      expect(gateway.counters.requests.models ?? 0).toBe(0);
    },
  );

  it("a padded fallback id (the call's own model, padded) is refused, naming its index", async () => {
    const gateway = await emulate();
    gateway.emulator.injectFault({ fault: 'service_unavailable', model: 'my/desk-model' });
    const field = await caught(async () =>
      new GatewayChatModel({
        ...gateway.connection,
        model: 'my/desk-model',
        fallbackModels: ['my/desk-model '],
      }).invoke('hi'),
    );
    expect(field).toMatchObject({ code: 'configuration_error', field: 'fallbackModels[0]' });
    expect((field as Error).message).toContain(WHITESPACE);
    const model = new GatewayChatModel({ ...gateway.connection, model: 'my/desk-model' });
    const option = await caught(model.invoke('hi', { fallbackModels: ['my/desk-model '] }));
    expect(option).toMatchObject({ code: 'invalid_request_error', field: 'fallbackModels[0]' });
    expect(gateway.counters.requests.chat ?? 0).toBe(0);
  });
});

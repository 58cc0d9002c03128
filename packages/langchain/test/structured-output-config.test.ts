import { caught, emulate } from '@infergate/emulator/testing';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { GatewayChatModel } from '../src';

const city = z.object({ city: z.string() });

async function model() {
  const gateway = await emulate();
  return {
    gateway,
    model: new GatewayChatModel({ ...gateway.connection, model: 'community/general' }),
  };
}

describe("withStructuredOutput's config: a key LangChain does not define is refused", () => {
  it.each([
    ['includeRAW', true, 'includeRaw'],
    ['metod', 'functionCalling', 'method'],
    ['nam', 'city', 'name'],
  ] as const)(
    '{ %s } is refused, naming the closest key; nothing sent',
    async (key, value, closest) => {
      const { gateway, model: chat } = await model();
      const error = await caught(async () =>
        chat.withStructuredOutput(city, { [key]: value } as never),
      );
      expect(error).toMatchObject({ code: 'configuration_error', field: key });
      expect((error as Error).message).toContain(
        `unknown option \`${key}\` in withStructuredOutput config — did you mean \`${closest}\`?`,
      );
      expect(gateway.counters.requests.chat).toBe(0);
    },
  );

  it('its own keys (name, method, includeRaw, strict) are taken: { raw, parsed } comes back', async () => {
    const { model: chat } = await model();
    const runnable = chat.withStructuredOutput(city, {
      name: 'city',
      method: 'jsonSchema',
      includeRaw: true,
      strict: true,
    });
    const answer = await runnable.invoke('[[json:{"city":"Kyiv"}]]');
    expect(Object.keys(answer).sort()).toEqual(['parsed', 'raw']);
  });
});

// docs/gateway-protocol.md §4.1: a call setting ai@7 or ai@6 (`/v6`) hands over as `null`
// (temperature, topP, seed, maxOutputTokens, stopSequences, penalties) is "not set": the call is
// sent without the field (the server's default), not refused and no TypeError.
import { generateText, streamText } from 'ai';
import { generateText as generateTextV6 } from 'ai-v6';
import { describe, expect, it } from 'vitest';
import { providersOnMsw, recordingChatBodies } from './providers';

const { gateway, gatewayV3 } = await providersOnMsw();

const SETTINGS = [
  'temperature',
  'topP',
  'seed',
  'maxOutputTokens',
  'stopSequences',
  'presencePenalty',
  'frequencyPenalty',
];
const WIRE = ['temperature', 'top_p', 'seed', 'max_tokens', 'stop'];
const WIRE_PENALTIES = ['presence_penalty', 'frequency_penalty'];
// (ai's types say number | undefined; JavaScript callers and ai's own settings pass null.)
const nulls = Object.fromEntries(SETTINGS.map((name) => [name, null])) as Record<string, never>;

function expectNoneSent(body: Record<string, unknown> | undefined) {
  expect(body?.messages).toBeDefined();
  for (const name of [...WIRE, ...WIRE_PENALTIES]) expect(body).not.toHaveProperty(name);
}

describe('null call settings are not set', () => {
  it('ai@7 generateText and streamText', async () => {
    const { bodies, settings } = recordingChatBodies();
    const model = gateway(settings)('community/general');
    const result = await generateText({ model, prompt: 'hi', maxRetries: 0, ...nulls });
    expect(result.text).toBe('Echo: hi');
    const streamed = streamText({ model, prompt: 'hi', maxRetries: 0, ...nulls });
    expect(await streamed.text).toBe('Echo: hi');
    expect(bodies).toHaveLength(2);
    for (const body of bodies) expectNoneSent(body);
  });

  it('ai@6 generateText through /v6', async () => {
    const { bodies, settings } = recordingChatBodies();
    const model = gatewayV3(settings)('community/general');
    const result = await generateTextV6({ model, prompt: 'hi', maxRetries: 0, ...nulls });
    expect(result.text).toBe('Echo: hi');
    expectNoneSent(bodies[0]);
  });

  it.each(SETTINGS)('%s: null alone (ai@7 and ai@6)', async (name) => {
    const { bodies, settings } = recordingChatBodies();
    const one = { [name]: null } as Record<string, never>;
    await generateText({ model: gateway(settings)('community/general'), prompt: 'hi', ...one });
    await generateTextV6({ model: gatewayV3(settings)('community/general'), prompt: 'hi', ...one });
    expect(bodies).toHaveLength(2);
    for (const body of bodies) expectNoneSent(body);
  });
});

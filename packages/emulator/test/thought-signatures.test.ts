import { describe, expect, it } from 'vitest';
import { createEmulator } from '../src/index';
import { chat, type Json, parseSse, toolLoop, userChat, WEATHER_TOOL } from './helpers';

const MODEL = 'community/general';
const ASK = 'call get_weather for "Rome"';
const emulator = () => createEmulator({ models: { [MODEL]: { dialect: 'gemini' } } });
const { firstAnswer, secondRequest: replaying } = toolLoop(MODEL, ASK);

/** The tool loop's second request, the call replayed as `call` shapes it. */
const secondRequest = (call: Json, stream = false) =>
  replaying({ role: 'assistant', content: null, tool_calls: [call] }, stream);

describe('gemini dialect: thought signatures on tool calls', () => {
  it('a whole answer signs each call in extra_content.google.thought_signature, the same each time', async () => {
    const [a, b] = [await firstAnswer(emulator()), await firstAnswer(emulator())];
    const signature = a.tool_calls[0].extra_content.google.thought_signature;
    expect(typeof signature).toBe('string');
    expect(signature).not.toBe('');
    expect(b.tool_calls[0]).toEqual(a.tool_calls[0]);
  });

  it("a stream signs the call's first piece only", async () => {
    const response = await chat(
      emulator(),
      userChat(MODEL, ASK, { tools: [WEATHER_TOOL], stream: true }),
    );
    const events = (parseSse(await response.text()) as Json[]).filter((e) => e !== '[DONE]');
    const pieces = events.flatMap((e) => e.choices[0]?.delta?.tool_calls ?? []);
    expect(pieces.length).toBeGreaterThan(1);
    expect(pieces[0].extra_content.google.thought_signature).toBe(
      (await firstAnswer(emulator())).tool_calls[0].extra_content.google.thought_signature,
    );
    expect(pieces.slice(1).some((piece: Json) => 'extra_content' in piece)).toBe(false);
  });

  it("a replay without the signature is refused with Gemini's own 400, as the gateway passes it on", async () => {
    const target = emulator();
    const { extra_content: _dropped, ...unsigned } = (await firstAnswer(target)).tool_calls[0];
    for (const stream of [false, true]) {
      const response = await chat(target, secondRequest(unsigned, stream));
      expect(response.status).toBe(400);
      expect(response.headers.get('x-service-model')).toBe(MODEL);
      const body = (await response.json()) as Json;
      expect(body[0].error).toMatchObject({ code: 400, status: 'INVALID_ARGUMENT' });
      expect(body[0].error.message).toMatch(
        /^Function call is missing a thought_signature in functionCall parts\. .*`default_api:get_weather` , position 2\./,
      );
    }
    const forged = { ...unsigned, extra_content: { google: { thought_signature: 'forged' } } };
    expect((await chat(target, secondRequest(forged))).status).toBe(400);
  });

  it('a replay with it is answered; an earlier turn is not checked', async () => {
    const target = emulator();
    const call = (await firstAnswer(target)).tool_calls[0];
    const response = await chat(target, secondRequest(call));
    expect(response.status).toBe(200);
    const { extra_content: _dropped, ...unsigned } = call;
    const later = secondRequest(unsigned);
    later.messages.push({ role: 'user', content: 'thanks' });
    expect((await chat(target, later)).status).toBe(200);
  });

  it("a tool result without its tool's name is refused with Gemini's own 400", async () => {
    const target = emulator();
    const call = (await firstAnswer(target)).tool_calls[0];
    const request = secondRequest(call);
    const { name: _dropped, ...unnamed } = request.messages[2] as Json;
    request.messages = [{ role: 'system', content: 'be brief' }, ...request.messages.slice(0, 2)];
    request.messages.push(unnamed, { ...unnamed, name: '' });
    const response = await chat(target, request);
    expect(response.status).toBe(400);
    expect(response.headers.get('x-service-model')).toBe(MODEL);
    const body = (await response.json()) as Json;
    expect(body[0].error).toMatchObject({ code: 400, status: 'INVALID_ARGUMENT' });
    expect(body[0].error.message).toBe(
      '* GenerateContentRequest.contents[2].parts[0].function_response.name: Name cannot be empty.\n' +
        '* GenerateContentRequest.contents[3].parts[0].function_response.name: Name cannot be empty.\n',
    );
  });

  it('other dialects neither sign nor check', async () => {
    const target = createEmulator();
    const response = await chat(target, userChat(MODEL, ASK, { tools: [WEATHER_TOOL] }));
    const call = ((await response.json()) as Json).choices[0].message.tool_calls[0];
    expect(call.extra_content).toBeUndefined();
    expect((await chat(target, secondRequest(call))).status).toBe(200);
    const unnamed = secondRequest(call);
    delete unnamed.messages[2]?.name;
    expect((await chat(target, unnamed)).status).toBe(200);
  });
});

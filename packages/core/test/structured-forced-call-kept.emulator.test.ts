import { emulate } from '@infergate/emulator/testing';
import { describe, expect, it } from 'vitest';
import type { ChatResult } from '../src/index';
import { clientOn } from './helpers';
import { askingForAPerson } from './structured-place-asks';

// A schema served by a forced tool call (docs/gateway-protocol.md §4.8): the answer hands on the
// call's arguments as its text and no tool call, and `structured.toolCall` keeps the call the
// model made (its id, name and arguments), for a caller that shows the model's own message.

/** `gateway`'s connection, the text of each chat answer kept. */
function answersKept(gateway: Awaited<ReturnType<typeof emulate>>) {
  const answers: Promise<string>[] = [];
  const fetch: typeof globalThis.fetch = async (input, init) => {
    const request = new Request(input, init);
    const response = await gateway.fetch(request);
    if (request.url.endsWith('/chat/completions')) answers.push(response.clone().text());
    return response;
  };
  return { connection: { ...gateway.connection, fetch }, answers };
}

/** The id of the tool call the answers sent (streamed or not). */
async function sentCallId(answers: Promise<string>[]): Promise<string | undefined> {
  const texts = await Promise.all(answers);
  return /"tool_calls":\[\{(?:"index":0,)?"id":"([^"]+)"/.exec(texts.join('\n'))?.[1];
}

/** `structured.toolCall` is the call the answers sent (its id), named `person`, its arguments the value. */
async function expectCallKept(
  structured: ChatResult['structured'],
  answers: Promise<string>[],
): Promise<void> {
  const id = await sentCallId(answers);
  expect(id).toEqual(expect.any(String));
  expect(structured?.toolCall).toEqual({ id, name: 'person', arguments: expect.any(String) });
  expect(JSON.parse(structured?.toolCall?.arguments ?? '')).toEqual(structured?.value);
}

describe('structured output served by a forced tool call: the call kept on `structured`', () => {
  it('chat: structured.toolCall is the call the model made; the answer has none', async () => {
    const gateway = answersKept(await emulate());
    const result = await clientOn(gateway).chat(askingForAPerson('community/tools'));
    expect(result.structured?.method).toBe('tools');
    await expectCallKept(result.structured, gateway.answers);
    expect(result.answer.toolCalls).toEqual([]);
  });

  it('chatStream: the assembled answer’s structured.toolCall, at its end', async () => {
    const gateway = answersKept(await emulate());
    const stream = await clientOn(gateway).chatStream(askingForAPerson('community/tools'));
    for await (const event of stream) expect(event.type).not.toBe('tool-call-delta');
    const result = await stream.result();
    await expectCallKept(result.structured, gateway.answers);
    expect(result.toolCalls).toEqual([]);
  });

  it('a schema served another way has no toolCall', async () => {
    const gateway = answersKept(await emulate());
    const result = await clientOn(gateway).chat(askingForAPerson('community/json-schema'));
    expect(result.structured?.method).toBe('json_schema');
    expect(result.structured).not.toHaveProperty('toolCall');
  });
});

import { emulate } from '@infergate/emulator/testing';
import { describe, expect, it } from 'vitest';
import type { ChatStreamEvent } from '../src/index';
import { clientOn } from './helpers';
import { askingForAPerson } from './structured-place-asks';

// A schema served by a forced tool call (docs/gateway-protocol.md §4.8 item 5): the answer reports
// its finish `tool_calls` as `stop` (no call is handed on), and keeps what the server sent — in
// `structured.sentFinishReason`, the answer's `sentFinishReason` and the finish event's `sent` —
// for an adapter that shows the model's own message (a framework's raw answer) as it came.

describe("a structured answer's finish as the server sent it", () => {
  it('chat: reported stop, the sent tool_calls kept on structured and on the answer', async () => {
    const result = await clientOn(await emulate()).chat(askingForAPerson('community/tools'));
    expect(result.structured?.method).toBe('tools');
    expect(result.answer.finishReason).toBe('stop');
    expect(result.structured?.sentFinishReason).toBe('tool_calls');
    expect(result.answer.sentFinishReason).toBe('tool_calls');
  });

  it('chatStream: the finish event keeps it in `sent`; the assembled answer as a whole one', async () => {
    const stream = await clientOn(await emulate()).chatStream(askingForAPerson('community/tools'));
    const finishes: ChatStreamEvent[] = [];
    for await (const event of stream) if (event.type === 'finish') finishes.push(event);
    expect(finishes).toMatchObject([{ type: 'finish', reason: 'stop', sent: 'tool_calls' }]);
    const result = await stream.result();
    expect(result.finishReason).toBe('stop');
    expect(result.sentFinishReason).toBe('tool_calls');
    expect(result.structured?.sentFinishReason).toBe('tool_calls');
  });

  it('a schema served as JSON text, finished stop: nothing else sent, nothing kept', async () => {
    const result = await clientOn(await emulate()).chat(askingForAPerson('community/json-schema'));
    expect(result.answer.finishReason).toBe('stop');
    expect(result.structured).not.toHaveProperty('sentFinishReason');
    expect(result.answer).not.toHaveProperty('sentFinishReason');
  });
});

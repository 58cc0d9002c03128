import { emulate } from '@infergate/emulator/testing';
import { describe, expect, it } from 'vitest';
import { otelEvents } from '../src/otel';
import { MAX_MESSAGES_CHARS, MAX_PART_CHARS } from '../src/otel/genai-messages';
import { clientOn, DEFAULT_KEYS } from './helpers';
import { otelRecorder } from './otel-recorder';

interface Message {
  role: string;
  parts: { type: string; content?: string }[];
}

async function recording() {
  const gateway = await emulate();
  const { tracer, spans } = otelRecorder();
  const client = clientOn(gateway, { recordContent: true, onEvent: otelEvents({ tracer }) });
  const callSpans = () => spans('chat community/general');
  return { gateway, client, callSpans };
}

const attribute = (value: unknown): { text: string; messages: Message[] } => {
  const text = String(value);
  return { text, messages: JSON.parse(text) as Message[] };
};

describe('otelEvents with recordContent: recorded content is bounded', () => {
  it('cuts a long text at MAX_PART_CHARS with a marker, in and out, the key still redacted', async () => {
    const { gateway, client, callSpans } = await recording();
    // The key in the part kept, then 200,000 characters.
    const long = `key ${DEFAULT_KEYS.full} then ${'x'.repeat(200_000)}`;
    const messages = [{ role: 'user' as const, content: long }];
    await client.chat({ model: 'community/general', messages });
    await (await client.chatStream({ model: 'community/general', messages })).result();
    expect(callSpans()).toHaveLength(2);
    for (const span of callSpans()) {
      const input = attribute(span.attributes['gen_ai.input.messages']);
      const output = attribute(span.attributes['gen_ai.output.messages']);
      for (const { text, messages: recorded } of [input, output]) {
        expect(text.length).toBeLessThanOrEqual(MAX_MESSAGES_CHARS);
        const content = recorded[0]?.parts.find((part) => part.type === 'text')?.content ?? '';
        expect(content).toMatch(/…\[cut: \d+ more chars\]$/);
        expect(content.length).toBeLessThan(MAX_PART_CHARS + 40);
        expect(content).toContain('[redacted]');
      }
    }
    const all = JSON.stringify(callSpans().map((span) => span.attributes));
    expect(all).not.toContain(DEFAULT_KEYS.full);
    await gateway.close();
  });

  it('keeps the first and the newest messages within MAX_MESSAGES_CHARS, a marker between', async () => {
    const { gateway, client, callSpans } = await recording();
    const turns = Array.from({ length: 40 }, (_, index) => ({
      role: index % 2 === 0 ? ('user' as const) : ('assistant' as const),
      content: `turn ${index} ${'y'.repeat(4_000)}`,
    }));
    await client.chat({
      model: 'community/general',
      messages: [{ role: 'system', content: 'Be brief.' }, ...turns],
    });
    const { text, messages } = attribute(callSpans()[0]?.attributes['gen_ai.input.messages']);
    expect(text.length).toBeLessThanOrEqual(MAX_MESSAGES_CHARS);
    expect(messages[0]).toEqual({
      role: 'system',
      parts: [{ type: 'text', content: 'Be brief.' }],
    });
    const cutCount = 40 - (messages.length - 2);
    expect(messages[1]?.parts[0]?.content).toBe(
      `[cut: ${cutCount} message(s), over the ${MAX_MESSAGES_CHARS}-char limit]`,
    );
    expect(messages.at(-1)?.parts[0]?.content).toMatch(/^turn 39 /);
    expect(messages.length).toBeGreaterThan(3);
    await gateway.close();
  });
});
